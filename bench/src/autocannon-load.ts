import autocannon from "autocannon";
import type { LoadGenerator } from "./load-run.js";
import type { Operation } from "./operations.js";

type Request = autocannon.Request;
/** What a connection remembers between the two requests of a pair. */
type Pair = { previous?: string };

/** The requests autocannon cycles through on each connection. */
function requestsOf(
  operation: Operation | undefined,
  documents: number,
  misses: { count: number },
): Request[] {
  if (!operation) return [{ path: "/empty" }];
  // A request that never changes is built once; the others per request, spread over the data.
  if (operation.fixed) return [{ method: operation.method, ...operation.next(documents) }];
  const first: Request = {
    method: operation.method,
    setupRequest: (request) => {
      const { path, body } = operation.next(documents);
      return { ...request, path, ...(body === undefined ? {} : { body }) };
    },
  };
  const { followUp } = operation;
  if (!followUp) return [first];
  // The follow-up is built from the first answer; when that failed, the pair starts again.
  first.onResponse = (status, body, context) => {
    if (status !== operation.status) misses.count++;
    (context as Pair).previous = status === operation.status ? body : undefined;
  };
  const second: Request = {
    method: followUp.method,
    setupRequest: (request, context) => {
      const { previous } = context as Pair;
      // A falsy answer makes autocannon start the connection's pair again.
      if (previous === undefined) return undefined as unknown as Request;
      const { path, body } = followUp.next(previous);
      return { ...request, method: followUp.method, path, ...(body === undefined ? {} : { body }) };
    },
    onResponse: (status) => {
      if (status !== followUp.status) misses.count++;
    },
  };
  return [first, second];
}

/** autocannon, in this process. */
export const autocannonLoad: LoadGenerator = async (url, operation, documents, seconds, connections) => {
  const cpuBefore = process.cpuUsage();
  const misses = { count: 0 };
  const result = await autocannon({
    url,
    connections,
    pipelining: 1,
    duration: seconds,
    method: operation?.method ?? "GET",
    headers: operation
      ? { authorization: `Bearer ${operation.key}`, "content-type": "application/json" }
      : {},
    requests: requestsOf(operation, documents, misses),
  });
  const cpu = process.cpuUsage(cpuBefore);
  const expected = operation?.status ?? 200;
  const statusCount =
    (result as unknown as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats ?? {};
  return {
    reqPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p97_5Ms: result.latency.p97_5,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    unexpectedStatus: operation?.followUp
      ? misses.count
      : Object.entries(statusCount)
          .filter(([status]) => Number(status) !== expected)
          .reduce((sum, [, { count }]) => sum + count, 0),
    errors: result.errors + result.timeouts,
    loadCpuSeconds: (cpu.user + cpu.system) / 1e6,
  };
};
