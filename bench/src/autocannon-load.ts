import autocannon from "autocannon";
import type { LoadGenerator } from "./load-run.js";

/** autocannon, in this process. */
export const autocannonLoad: LoadGenerator = async (url, operation, documents, seconds, connections) => {
  const cpuBefore = process.cpuUsage();
  const result = await autocannon({
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
    unexpectedStatus: Object.entries(statusCount)
      .filter(([status]) => Number(status) !== expected)
      .reduce((sum, [, { count }]) => sum + count, 0),
    errors: result.errors + result.timeouts,
    loadCpuSeconds: (cpu.user + cpu.system) / 1e6,
  };
};
