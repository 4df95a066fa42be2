import autocannon from "autocannon";
import type { Operation } from "./operations.js";

export interface Measurement {
  req_per_s: number;
  p50_ms: number;
  p97_5_ms: number;
  p99_ms: number;
  requests: number;
  non_2xx: number;
  unexpected_status: number;
  errors: number;
  /** Cores the server used during the measured run (CPU seconds per second), when it was watched. */
  server_cores?: number;
  /** Cores the load generator (this process) used during the measured run. */
  load_cores?: number;
  /** req/s of every round, when the best of several is reported (errors are then summed). */
  rounds_req_per_s?: number[];
}

/** The better of two rounds of one measurement, keeping every round's req/s and all their errors. */
export function bestOf(kept: Measurement | undefined, next: Measurement): Measurement {
  if (!kept) return { ...next, rounds_req_per_s: [next.req_per_s] };
  const best = next.req_per_s > kept.req_per_s ? next : kept;
  return {
    ...best,
    non_2xx: kept.non_2xx + next.non_2xx,
    unexpected_status: kept.unexpected_status + next.unexpected_status,
    errors: kept.errors + next.errors,
    rounds_req_per_s: [...(kept.rounds_req_per_s ?? [kept.req_per_s]), next.req_per_s],
  };
}

export interface LoadSettings {
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
}

function run(
  url: string,
  operation: Operation | undefined,
  documents: number,
  seconds: number,
  connections: number,
) {
  return autocannon({
    url,
    connections,
    pipelining: 1,
    duration: seconds,
    method: operation?.method ?? "GET",
    headers: operation
      ? { authorization: `Bearer ${operation.key}`, "content-type": "application/json" }
      : {},
    requests: [
      // A request that never changes is built once; the others per request, spread over the data.
      !operation
        ? { path: "/empty" }
        : operation.fixed
          ? operation.next(documents)
          : {
              setupRequest: (request) => {
                const { path, body } = operation.next(documents);
                return { ...request, path, ...(body === undefined ? {} : { body }) };
              },
            },
    ],
  });
}

/** A warm-up, then the measured run: fixed connections, no pipelining. `operation` absent: GET /empty. */
export async function measure(
  url: string,
  operation: Operation | undefined,
  documents: number,
  settings: LoadSettings,
  server?: { cpuSeconds(): number },
): Promise<Measurement> {
  await run(url, operation, documents, settings.warmupSeconds, settings.connections);
  const serverBefore = server?.cpuSeconds() ?? 0;
  const loadBefore = process.cpuUsage();
  const started = performance.now();
  const result = await run(url, operation, documents, settings.durationSeconds, settings.connections);
  const seconds = (performance.now() - started) / 1000;
  const load = process.cpuUsage(loadBefore);
  const cores = (cpuSeconds: number) => Math.round((cpuSeconds / seconds) * 100) / 100;
  const expected = operation?.status ?? 200;
  const statusCount =
    (result as unknown as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats ?? {};
  const unexpected = Object.entries(statusCount)
    .filter(([status]) => Number(status) !== expected)
    .reduce((sum, [, { count }]) => sum + count, 0);
  return {
    req_per_s: Math.round(result.requests.average),
    p50_ms: result.latency.p50,
    p97_5_ms: result.latency.p97_5,
    p99_ms: result.latency.p99,
    requests: result.requests.total,
    non_2xx: result.non2xx,
    unexpected_status: unexpected,
    errors: result.errors + result.timeouts,
    ...(server && { server_cores: cores(server.cpuSeconds() - serverBefore) }),
    load_cores: cores((load.user + load.system) / 1e6),
  };
}
