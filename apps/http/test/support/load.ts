import type { ApiResponse } from "./http.js";

/** Requests made in `concurrency` loops until stopped: every response, and every request that got none. */
export function keepCalling(request: () => Promise<ApiResponse>, concurrency: number) {
  let running = true;
  const responses: ApiResponse[] = [];
  const failures: unknown[] = [];
  const loops = Array.from({ length: concurrency }, async () => {
    while (running) {
      try {
        responses.push(await request());
      } catch (error) {
        failures.push(error);
      }
    }
  });
  return {
    responses,
    failures,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check` holds, polling; fails after `timeoutMs`. */
export async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("the condition did not hold in time");
    await sleep(50);
  }
}
