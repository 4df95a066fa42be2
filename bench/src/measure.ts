import type { LoadGenerator } from "./load-run.js";
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
  /** Cores the load generator used during the measured run. */
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

/** A warm-up, then the measured run: fixed connections, no pipelining. `operation` absent: GET /empty. */
export async function measure(
  load: LoadGenerator,
  url: string,
  operation: Operation | undefined,
  documents: number,
  settings: LoadSettings,
  server?: { cpuSeconds(): number },
): Promise<Measurement> {
  await load(url, operation, documents, settings.warmupSeconds, settings.connections);
  const serverBefore = server?.cpuSeconds() ?? 0;
  const started = performance.now();
  const result = await load(url, operation, documents, settings.durationSeconds, settings.connections);
  const seconds = (performance.now() - started) / 1000;
  const cores = (cpuSeconds: number) => Math.round((cpuSeconds / seconds) * 100) / 100;
  return {
    req_per_s: Math.round(result.reqPerSecond),
    p50_ms: result.p50Ms,
    p97_5_ms: result.p97_5Ms,
    p99_ms: result.p99Ms,
    requests: result.requests,
    non_2xx: result.non2xx,
    unexpected_status: result.unexpectedStatus,
    errors: result.errors,
    ...(server && { server_cores: cores(server.cpuSeconds() - serverBefore) }),
    load_cores: cores(result.loadCpuSeconds),
  };
}
