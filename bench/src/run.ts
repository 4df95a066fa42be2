import { execSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, release, totalmem } from "node:os";
import { fileURLToPath } from "node:url";
import { generateDataset } from "./generate-dataset.js";
import { generatePostgresDataset } from "./generate-postgres-dataset.js";
import { bestOf, type LoadSettings, type Measurement, measure } from "./measure.js";
import { OPERATION_NAMES, OPERATIONS, type OperationName, READS } from "./operations.js";
import {
  type BenchResults,
  chart,
  markdown,
  type PostgresSizeResult,
  type SizeResult,
  summarize,
} from "./report.js";
import { type RunningProcess, startEmptyServer, startFloorServer, startOurServer } from "./servers.js";

const BENCH = fileURLToPath(new URL("../", import.meta.url));
const README = fileURLToPath(new URL("../../README.md", import.meta.url));
const sizes = (process.env.BENCH_SIZES ?? "1000,100000,1000000").split(",").map(Number);
const settings: LoadSettings = {
  connections: Number(process.env.BENCH_CONNECTIONS ?? 16),
  warmupSeconds: Number(process.env.BENCH_WARMUP ?? 2),
  durationSeconds: Number(process.env.BENCH_DURATION ?? 5),
};
const workers = Number(process.env.BENCH_WORKERS ?? 2);
/** How many times each measurement is taken; the best round counts. */
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 2));
/** A PostgreSQL server to measure too: BENCH_POSTGRES_URL, or DATABASE_URL when it is one. */
const postgresUrl =
  process.env.BENCH_POSTGRES_URL ??
  (/^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? "") ? process.env.DATABASE_URL : undefined);
const log = (line: string) => process.stderr.write(`${line}\n`);
let port = 6100;

/**
 * Measures each operation on every server in turn, `rounds` times, and keeps each server's best
 * round: this machine's noise only ever slows a run down, and taking turns lets a slow spell hit
 * every server alike. Errors are summed over all rounds.
 */
async function measureSideBySide<Label extends string>(
  servers: Record<Label, RunningProcess>,
  documents: number,
  names: readonly (OperationName | "empty")[],
) {
  const labels = Object.keys(servers) as Label[];
  const results = new Map<Label, Record<string, Measurement>>(labels.map((label) => [label, {}]));
  for (const name of names) {
    const operation = name === "empty" ? undefined : OPERATIONS[name];
    for (let round = 0; round < rounds; round++) {
      for (const label of labels) {
        const server = servers[label];
        const measured = await measure(server.url, operation, documents, settings, server);
        const kept = results.get(label)!;
        kept[name] = bestOf(kept[name], measured);
      }
    }
    const line = labels.map((label) => `${label} ${results.get(label)![name]!.rounds_req_per_s!.join("/")}`);
    log(`    ${name} (req/s per round): ${line.join(", ")}`);
  }
  return Object.fromEntries(results) as Record<Label, Record<string, Measurement>>;
}

function freshCopyOf(generated: string): string {
  // Each run writes (variables, bindings) to a copy, so the generated set stays as built.
  const path = `${BENCH}.data/run.sqlite`;
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${path}${suffix}`, { force: true });
  copyFileSync(generated, path);
  return path;
}

async function measureSize(documents: number): Promise<SizeResult> {
  const generated = `${BENCH}.data/documents-${documents}.sqlite`;
  log(`\n${documents} documents: service-api and the floor (node:http + better-sqlite3), in turn`);
  await generateDataset(generated, documents, log);
  const path = freshCopyOf(generated);
  const servers = {
    ours: await startOurServer(`file:${path}`, ++port),
    floor: await startFloorServer(path, ++port),
  };
  const results = await measureSideBySide(servers, documents, OPERATION_NAMES);
  const peak = servers.ours.peakRssMb().total;
  await Promise.all(Object.values(servers).map((server) => server.stop()));
  log(`  our peak RSS: ${peak} MB`);
  return {
    documents,
    ours: results.ours as Record<OperationName, Measurement>,
    floor: results.floor as Record<OperationName, Measurement>,
    peak_rss_mb: peak,
  };
}

async function measurePostgres(serverUrl: string, documents: number): Promise<PostgresSizeResult> {
  log(`\nPostgreSQL, ${documents} documents`);
  const databaseUrl = await generatePostgresDataset(serverUrl, documents, log);
  const ours = await startOurServer(databaseUrl, ++port);
  const results = await measureSideBySide({ ours }, documents, OPERATION_NAMES);
  const peak = ours.peakRssMb().total;
  await ours.stop();
  return { documents, ours: results.ours as Record<OperationName, Measurement>, peak_rss_mb: peak };
}

async function measureEmpty() {
  log("\nempty routes");
  const servers = {
    express: await startEmptyServer("express", ++port),
    http: await startEmptyServer("http", ++port),
  };
  const results = await measureSideBySide(servers, 0, ["empty"]);
  await Promise.all(Object.values(servers).map((server) => server.stop()));
  return { express: results.express.empty!, http: results.http.empty! };
}

async function measureCluster(documents: number) {
  const path = `${BENCH}.data/run.sqlite`;
  log(`\ncluster: ${workers} workers against 1, reads at ${documents} documents, in turn`);
  const servers = {
    one: await startOurServer(`file:${path}`, ++port, 1),
    many: await startOurServer(`file:${path}`, ++port, workers),
  };
  const results = await measureSideBySide(servers, documents, READS);
  await Promise.all(Object.values(servers).map((server) => server.stop()));
  return {
    workers,
    one: results.one as Record<OperationName, Measurement>,
    many: results.many as Record<OperationName, Measurement>,
  };
}

async function main(): Promise<void> {
  mkdirSync(`${BENCH}.data`, { recursive: true });
  const commit = execSync("git rev-parse --short HEAD", { cwd: BENCH }).toString().trim();
  const date = new Date().toISOString().slice(0, 10);
  const measured: SizeResult[] = [];
  for (const documents of sizes) measured.push(await measureSize(documents));
  // The cluster runs on the copy of the last size measured.
  const cluster = workers > 1 ? await measureCluster(sizes.at(-1)!) : undefined;
  const postgres: PostgresSizeResult[] = [];
  if (postgresUrl)
    for (const documents of sizes) postgres.push(await measurePostgres(postgresUrl, documents));
  const empty = await measureEmpty();

  const base = {
    date,
    commit,
    machine: {
      cpus: cpus().length,
      model: cpus()[0]?.model ?? "unknown",
      memory_gb: Math.round(totalmem() / 2 ** 30),
      kernel: release(),
    },
    node: process.version,
    settings: {
      connections: settings.connections,
      warmup_s: settings.warmupSeconds,
      duration_s: settings.durationSeconds,
      rounds,
      sizes,
      store: postgresUrl
        ? "SQLite (WAL, on disk), then PostgreSQL on the same machine"
        : "SQLite (WAL, on disk)",
    },
    sizes: measured,
    empty,
    ...(cluster && { cluster }),
    ...(postgres.length > 0 && { postgres }),
  };
  const results: BenchResults = { ...base, ...summarize(base) };
  const stem = `${BENCH}results/${date}-${commit}`;
  mkdirSync(`${BENCH}results`, { recursive: true });
  writeFileSync(`${stem}.json`, `${JSON.stringify(results, null, 2)}\n`);
  const table = markdown(results);
  writeFileSync(`${stem}.md`, table);
  writeFileSync(`${BENCH}results/latest.md`, table);
  writeFileSync(`${BENCH}results/latest.svg`, chart(results));
  const readme = readFileSync(README, "utf8");
  const section = /(<!-- bench:start -->\n)[\s\S]*?(<!-- bench:end -->)/;
  if (section.test(readme)) writeFileSync(README, readme.replace(section, `$1${table}$2`));
  process.stdout.write(table);
  log(`\nResults: ${stem}.json, .md; chart: bench/results/latest.svg`);
}

main().catch((error: unknown) => {
  log(`bench failed: ${error instanceof Error ? error.stack : String(error)}`);
  process.exit(1);
});
