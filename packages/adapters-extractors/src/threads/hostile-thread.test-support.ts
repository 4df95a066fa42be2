// A thread for `ThreadPool`'s tests: it answers, fails, hangs, crashes or exhausts its memory on request.
import { threadId } from "node:worker_threads";
import { serveThreadCalls } from "./serve-thread-calls.js";

export type HostileRequest =
  | { do: "answer"; value: string }
  | { do: "tell-thread" }
  | { do: "throw"; message: string }
  | { do: "throw-uncaught"; message: string }
  | { do: "exit"; code: number }
  | { do: "hang" }
  | { do: "allocate" }
  /** Answers once `parties` calls have arrived (counted in `arrived`), or fails after `waitMs`. */
  | { do: "meet"; arrived: SharedArrayBuffer; parties: number; waitMs: number };

export type HostileAnswer = string | number;

const hoard: unknown[] = [];

serveThreadCalls<HostileRequest, HostileAnswer>((request) => {
  switch (request.do) {
    case "answer":
      return request.value;
    case "tell-thread":
      return threadId;
    case "throw":
      throw new Error(request.message);
    case "throw-uncaught":
      setImmediate(() => {
        throw new Error(request.message);
      });
      return new Promise<never>(() => {});
    case "exit":
      return process.exit(request.code);
    case "hang":
      for (;;) {}
    case "allocate":
      for (;;) hoard.push(new Array(100_000).fill(hoard.length));
    case "meet": {
      const arrived = new Int32Array(request.arrived);
      Atomics.add(arrived, 0, 1);
      Atomics.notify(arrived, 0);
      const deadline = Date.now() + request.waitMs;
      for (let count = Atomics.load(arrived, 0); count < request.parties; count = Atomics.load(arrived, 0)) {
        if (Date.now() > deadline) throw new Error("The other calls never came.");
        Atomics.wait(arrived, 0, count, 50);
      }
      return threadId;
    }
  }
});
