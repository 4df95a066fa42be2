import type { Operation } from "./operations.js";

/** What one run of a load generator measured. */
export interface LoadRun {
  reqPerSecond: number;
  p50Ms: number;
  p97_5Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  /** Answers whose status is not the one the operation must answer. */
  unexpectedStatus: number;
  /** Connection errors and timeouts. */
  errors: number;
  /** CPU seconds the load generator used. */
  loadCpuSeconds: number;
}

/** Drives `operation` (absent: GET /empty) at `url` for `seconds`: fixed connections, no pipelining. */
export type LoadGenerator = (
  url: string,
  operation: Operation | undefined,
  documents: number,
  seconds: number,
  connections: number,
) => Promise<LoadRun>;
