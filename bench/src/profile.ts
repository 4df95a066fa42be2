import { copyFileSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { autocannonLoad } from "./autocannon-load.js";
import { type CpuShare, cpuShares } from "./cpu-profile.js";
import { generateDataset } from "./generate-dataset.js";
import { FLOORED, type FlooredName, OPERATIONS } from "./operations.js";
import { startFloorServer, startOurServer } from "./servers.js";
import { wrkLoad } from "./wrk-load.js";

/**
 * Where a request's CPU goes, ours against the floor, for one of the five operations:
 * `pnpm bench:profile [operation]` (default the variable update). Each server runs with
 * `--cpu-prof`; only the samples of the measured run count, so start-up and shutdown do not, and
 * the idle ones are left out. Sampled every 100 µs: the profiler's cost is in every figure, ours and
 * the floor's alike. `BENCH_PROFILE_DOCUMENTS` (1000), `BENCH_WARMUP`, `BENCH_DURATION`,
 * `BENCH_CONNECTIONS` and `BENCH_LOAD` as for `pnpm bench`.
 */
const BENCH = fileURLToPath(new URL("../", import.meta.url));
const name = (process.argv[2] ?? "updateConversationVariable") as FlooredName;
if (!FLOORED.includes(name)) throw new Error(`an operation the floor serves: ${FLOORED.join(", ")}`);
const documents = Number(process.env.BENCH_PROFILE_DOCUMENTS ?? 1000);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const warmupSeconds = Number(process.env.BENCH_WARMUP ?? 2);
const durationSeconds = Number(process.env.BENCH_DURATION ?? 5);
const scratch = mkdtempSync(join(tmpdir(), "service-api-profile-"));
const load = process.env.BENCH_LOAD === "wrk" ? wrkLoad(scratch) : autocannonLoad;
/** The floor ends at once on SIGTERM, which writes no profile; this makes it exit, which does. */
const EXIT_ON_TERM = 'data:text/javascript,process.on("SIGTERM",()=>process.exit(0))';
const microsNow = () => Number(process.hrtime.bigint() / 1000n);
const log = (line: string) => process.stderr.write(`${line}\n`);

async function profile(side: "ours" | "floor", port: number) {
  const data = join(scratch, `${side}.sqlite`);
  copyFileSync(`${BENCH}.data/documents-${documents}.sqlite`, data);
  const profiles = join(scratch, side);
  const flags = ["--cpu-prof", `--cpu-prof-dir=${profiles}`, "--cpu-prof-interval=100"];
  const server =
    side === "ours"
      ? await startOurServer(`file:${data}`, port, 1, 0, flags)
      : await startFloorServer(data, port, 0, [`--import=${EXIT_ON_TERM}`, ...flags]);
  const operation = OPERATIONS[name];
  await load(server.url, operation, documents, warmupSeconds, connections);
  const from = microsNow();
  const run = await load(server.url, operation, documents, durationSeconds, connections);
  const to = microsNow();
  await server.stop();
  const [file] = readdirSync(profiles);
  if (!file) throw new Error(`${side}: no profile written`);
  return { run, ...cpuShares(join(profiles, file), { from, to, requests: run.requests }) };
}

const rows = (shares: CpuShare[], count: number) =>
  shares
    .slice(0, count)
    .map((share) => `  ${share.microsPerRequest.toFixed(1).padStart(7)} µs  ${share.name}`)
    .join("\n");

try {
  await generateDataset(`${BENCH}.data/documents-${documents}.sqlite`, documents, log);
  for (const [side, port] of [
    ["ours", 6400],
    ["floor", 6401],
  ] as const) {
    const { run, busy, places, functions } = await profile(side, port);
    console.log(
      `\n${side}: ${name} at ${documents} documents, ${Math.round(run.reqPerSecond)} req/s under the profiler, ` +
        `${busy.toFixed(1)} µs of CPU a request (sampled)\nby where the code lives:\n${rows(places, 15)}` +
        `\nby function:\n${rows(functions, 25)}`,
    );
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
