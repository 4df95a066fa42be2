import { parentPort } from "node:worker_threads";
import type { ThreadCall, ThreadMessage } from "./thread-messages.js";

/**
 * The thread side of `ThreadPool`: answers each call with `handle`'s value, or with the message of
 * what it threw (the thread goes on serving). Tells the pool it is ready once called, so that a
 * thread's start-up never counts against a call's time limit.
 */
export function serveThreadCalls<Request, Response>(
  handle: (request: Request) => Response | Promise<Response>,
): void {
  const port = parentPort;
  if (port === null) throw new Error("serveThreadCalls runs in a worker thread.");
  const post = (message: ThreadMessage<Response>) => port.postMessage(message);
  port.on("message", async ({ id, request }: ThreadCall<Request>) => {
    try {
      post({ kind: "answer", id, ok: true, value: await handle(request) });
    } catch (error) {
      post({
        kind: "answer",
        id,
        ok: false,
        message: error instanceof Error ? error.message : String(error),
      });
    }
  });
  post({ kind: "ready" });
}
