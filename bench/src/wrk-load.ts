import { execFile, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { promisify } from "node:util";
import { autocannonLoad } from "./autocannon-load.js";
import type { LoadGenerator } from "./load-run.js";
import type { Operation } from "./operations.js";

const run = promisify(execFile);

/** Requests prepared per operation: more than a run sends, so a run never repeats one. */
const PREPARED_REQUESTS = 200_000;

/**
 * wrk's script: the requests come from a file (one per line: method, path, body), written from the
 * same operations autocannon sends; each run starts at another place in it. Statuses are counted
 * per thread and summed at the end.
 */
const SCRIPT = String.raw`
wrk.headers["Authorization"] = os.getenv("BENCH_AUTHORIZATION")
wrk.headers["Content-Type"] = "application/json"
expected = tonumber(os.getenv("BENCH_EXPECTED_STATUS"))
unexpected, non_2xx, next, prepared = 0, 0, 0, {}
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init()
  for line in io.lines(os.getenv("BENCH_REQUESTS")) do
    local method, path, body = line:match("^(%u+)\t([^\t]*)\t(.*)$")
    table.insert(prepared, wrk.format(method, path, nil, body ~= "" and body or nil))
  end
  next = tonumber(os.getenv("BENCH_OFFSET")) % #prepared
end
function request()
  next = next % #prepared + 1
  return prepared[next]
end
function response(status)
  if status ~= expected then unexpected = unexpected + 1 end
  if status < 200 or status > 299 then non_2xx = non_2xx + 1 end
end
function done(summary, latency)
  local statuses = { unexpected = 0, non_2xx = 0 }
  for _, thread in ipairs(threads) do
    statuses.unexpected = statuses.unexpected + thread:get("unexpected")
    statuses.non_2xx = statuses.non_2xx + thread:get("non_2xx")
  end
  local e = summary.errors
  io.write(string.format(
    'BENCH {"requests":%d,"duration_us":%d,"errors":%d,"non_2xx":%d,"unexpected":%d,"p50_us":%d,"p97_5_us":%d,"p99_us":%d}\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, statuses.non_2xx,
    statuses.unexpected, latency:percentile(50), latency:percentile(97.5), latency:percentile(99)))
end
`;

/** wrk (C, one thread): far less CPU per request than autocannon. Files go to `directory`. */
export function wrkLoad(directory: string): LoadGenerator {
  if (spawnSync("wrk", ["-v"]).error)
    throw new Error("BENCH_LOAD=wrk needs wrk on the PATH (Debian package wrk)");
  const script = `${directory}/wrk.lua`;
  writeFileSync(script, SCRIPT);
  const requestFiles = new Map<Operation | undefined, Map<number, string>>();
  let written = 0;
  /** The requests of an operation at a size, written once per run. */
  const requestsOf = (operation: Operation | undefined, documents: number) => {
    const bySize = requestFiles.get(operation) ?? new Map<number, string>();
    requestFiles.set(operation, bySize);
    let file = bySize.get(documents);
    if (file) return file;
    file = `${directory}/wrk-requests-${written++}.tsv`;
    const count = !operation ? 1 : operation.fixed ? 1 : PREPARED_REQUESTS;
    const lines = Array.from({ length: count }, () => {
      const { path, body } = operation ? operation.next(documents) : { path: "/empty", body: undefined };
      return `${operation?.method ?? "GET"}\t${path}\t${body ?? ""}`;
    });
    writeFileSync(file, `${lines.join("\n")}\n`);
    bySize.set(documents, file);
    return file;
  };

  return async (url, operation, documents, seconds, connections) => {
    // A pair whose second request is built from the first answer is beyond a prepared request file.
    if (operation?.followUp) return autocannonLoad(url, operation, documents, seconds, connections);
    // bash's `times` reports the CPU wrk used (its children's line).
    const { stdout } = await run(
      "bash",
      ["-c", 'wrk "$@" && times', "wrk", "-t1", `-c${connections}`, `-d${seconds}s`, "-s", script, url],
      {
        env: {
          PATH: process.env.PATH ?? "",
          BENCH_REQUESTS: requestsOf(operation, documents),
          BENCH_AUTHORIZATION: operation ? `Bearer ${operation.key}` : "",
          BENCH_EXPECTED_STATUS: String(operation?.status ?? 200),
          BENCH_OFFSET: String(Math.floor(Math.random() * PREPARED_REQUESTS)),
        },
      },
    );
    const summary = JSON.parse(/^BENCH (.*)$/m.exec(stdout)![1]!);
    return {
      reqPerSecond: summary.requests / (summary.duration_us / 1e6),
      p50Ms: summary.p50_us / 1000,
      p97_5Ms: summary.p97_5_us / 1000,
      p99Ms: summary.p99_us / 1000,
      requests: summary.requests,
      non2xx: summary.non_2xx,
      unexpectedStatus: summary.unexpected,
      errors: summary.errors,
      loadCpuSeconds: childrenCpuSeconds(stdout),
    };
  };
}

/** The user and system time of the last line of bash's `times` ("0m1.20s 0m0.31s"): its children's. */
function childrenCpuSeconds(output: string): number {
  const times = output.trim().split("\n").at(-1) ?? "";
  return [...times.matchAll(/(\d+)m([\d.]+)s/g)].reduce(
    (sum, [, minutes, seconds]) => sum + Number(minutes) * 60 + Number(seconds),
    0,
  );
}
