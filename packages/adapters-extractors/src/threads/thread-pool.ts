import { type ResourceLimits, type TransferListItem, Worker } from "node:worker_threads";
import { endFailure, ThreadFailure } from "./thread-failure.js";
import type { ThreadCall, ThreadMessage } from "./thread-messages.js";
import { threadExecArgv } from "./thread-script.js";

export interface ThreadPoolOptions {
  /** The module each thread runs; it calls `serveThreadCalls`. */
  entry: URL;
  /** Given to every thread as its `workerData`. */
  workerData?: unknown;
  /** Threads at most, started when calls need them. */
  size: number;
  /** How long a call may run in its thread before the thread is ended and the call rejects. */
  timeLimitMs: number;
  /** Every thread's V8 limits; `maxOldGenerationSizeMb` is the one a call's garbage counts against. */
  resourceLimits: ResourceLimits & { maxOldGenerationSizeMb: number };
}

interface Call<Request, Response> {
  id: number;
  request: Request;
  transfer: readonly TransferListItem[];
  resolve: (value: Response) => void;
  reject: (error: Error) => void;
}

interface Thread<Request, Response> {
  worker: Worker;
  state: "starting" | "idle" | "busy" | "ending";
  call?: Call<Request, Response>;
  timer?: NodeJS.Timeout;
  /** The last `error` event: why the thread is ending by itself. */
  error?: Error;
}

/**
 * A fixed pool of worker threads, each running one call at a time. Calls wait in order (FIFO) for a
 * free thread. A thread that crashes, runs out of memory or passes the time limit fails only the
 * call it ran, and the next call that needs a thread starts a new one. Idle threads are `unref`'d:
 * an idle pool never keeps the process alive; a call under way does.
 */
export class ThreadPool<Request, Response> {
  private readonly threads = new Set<Thread<Request, Response>>();
  private readonly idle: Thread<Request, Response>[] = [];
  private readonly queue: Call<Request, Response>[] = [];
  private lastId = 0;
  private closed = false;
  private readonly options: ThreadPoolOptions;

  constructor(options: ThreadPoolOptions) {
    this.options = options;
  }

  /** Runs `request` in a thread, moving `transfer` (which the caller gives up) rather than copying it. */
  run(request: Request, transfer: readonly TransferListItem[] = []): Promise<Response> {
    if (this.closed) return Promise.reject(new ThreadFailure("closed", "was stopped: the pool is closed"));
    return new Promise((resolve, reject) => {
      this.queue.push({ id: ++this.lastId, request, transfer, resolve, reject });
      this.dispatch();
    });
  }

  /** Ends every thread; queued calls and calls under way reject, and so do later calls. */
  async close(): Promise<void> {
    this.closed = true;
    const failure = new ThreadFailure("closed", "was stopped: the pool is closed");
    for (const call of this.queue.splice(0)) call.reject(failure);
    this.idle.length = 0;
    await Promise.all(
      [...this.threads].map((thread) => {
        this.end(thread, failure);
        return thread.worker.terminate();
      }),
    );
  }

  private dispatch(): void {
    if (this.closed) return;
    while (this.queue.length > 0 && this.idle.length > 0)
      this.assign(this.idle.shift()!, this.queue.shift()!);
    while (this.queue.length > this.count("starting") && this.threads.size < this.options.size) {
      this.start();
    }
  }

  private assign(thread: Thread<Request, Response>, call: Call<Request, Response>): void {
    const message: ThreadCall<Request> = { id: call.id, request: call.request };
    try {
      thread.worker.postMessage(message, call.transfer);
    } catch (error) {
      // A request that cannot be cloned: the caller's fault; the thread never saw it.
      this.idle.push(thread);
      call.reject(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    thread.state = "busy";
    thread.call = call;
    thread.worker.ref();
    const seconds = this.options.timeLimitMs / 1000;
    thread.timer = setTimeout(() => {
      this.end(thread, new ThreadFailure("timed-out", `took longer than ${seconds} s`));
      void thread.worker.terminate();
    }, this.options.timeLimitMs);
  }

  private start(): void {
    const { entry, workerData, resourceLimits } = this.options;
    let worker: Worker;
    try {
      worker = new Worker(entry, { execArgv: threadExecArgv(entry), workerData, resourceLimits });
    } catch (error) {
      this.queue.shift()?.reject(new ThreadFailure("crashed", `could not start (${String(error)})`));
      return;
    }
    const thread: Thread<Request, Response> = { worker, state: "starting" };
    this.threads.add(thread);
    worker.on("message", (message: ThreadMessage<Response>) => this.heard(thread, message));
    worker.on("error", (error) => {
      // The thread is ending (its `exit` follows): it takes no call meanwhile.
      thread.error = error;
      if (thread.state === "idle") this.retire(thread);
    });
    worker.on("messageerror", () => {
      this.end(thread, new ThreadFailure("failed", "answered with data that could not be read"));
      void worker.terminate();
    });
    worker.on("exit", (exitCode) => this.ended(thread, exitCode));
  }

  private heard(thread: Thread<Request, Response>, message: ThreadMessage<Response>): void {
    if (message.kind === "answer") {
      const call = thread.call;
      if (call === undefined || call.id !== message.id) return;
      clearTimeout(thread.timer);
      thread.call = undefined;
      if (message.ok) call.resolve(message.value);
      else call.reject(new ThreadFailure("failed", `failed: ${message.message}`));
    } else if (thread.state !== "starting") {
      return;
    }
    thread.state = "idle";
    thread.worker.unref();
    this.idle.push(thread);
    this.dispatch();
  }

  private ended(thread: Thread<Request, Response>, exitCode: number): void {
    const { state } = thread;
    this.threads.delete(thread);
    this.retire(thread);
    const failure = endFailure(thread.error, exitCode, this.options.resourceLimits.maxOldGenerationSizeMb);
    if (state === "starting") {
      // The call this thread was started for fails rather than starting threads that fail forever.
      this.queue.shift()?.reject(new ThreadFailure(failure.kind, `could not start: it ${failure.happened}`));
    }
    this.end(thread, failure);
    this.dispatch();
  }

  /** Fails the thread's call, if any, and takes the thread out of service. */
  private end(thread: Thread<Request, Response>, failure: ThreadFailure): void {
    clearTimeout(thread.timer);
    thread.state = "ending";
    thread.call?.reject(failure);
    thread.call = undefined;
  }

  /** Takes an idle thread out of the idle list: it gets no more calls. */
  private retire(thread: Thread<Request, Response>): void {
    const index = this.idle.indexOf(thread);
    if (index >= 0) this.idle.splice(index, 1);
    thread.state = "ending";
  }

  private count(state: Thread<Request, Response>["state"]): number {
    let count = 0;
    for (const thread of this.threads) if (thread.state === state) count += 1;
    return count;
  }
}
