import type { Server } from "node:http";
import { Server as NetServer } from "node:net";
import type { ServerLifecycle } from "./server-lifecycle.js";

export interface ShutdownTimes {
  /** How long to keep answering after the drain starts. */
  drainMs: number;
  /** After the drain, how long open connections may take to finish before they are closed. */
  timeoutMs: number;
}

/**
 * A shutdown that loses no request: drain (readiness 503, every response closes its connection,
 * still accepting), then stop accepting and let every open connection finish what it received,
 * each closing after its response; connections still open after the time-out are closed.
 * `skipDrain()` ends the drain at once (a second signal).
 */
export class Shutdown {
  #endDrain: (() => void) | undefined;
  #done: Promise<void> | undefined;

  constructor(
    private readonly server: Server,
    private readonly lifecycle: ServerLifecycle,
    private readonly times: ShutdownTimes,
  ) {}

  run(): Promise<void> {
    this.#done ??= this.#run();
    return this.#done;
  }

  skipDrain(): void {
    this.#endDrain?.();
  }

  async #run(): Promise<void> {
    this.lifecycle.startDraining();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, this.times.drainMs);
      this.#endDrain = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    // net.Server's close, not http.Server's: that one also drops idle keep-alive connections, on
    // which a client may be sending its next request, and stops the header and request time-outs.
    const closed = new Promise<void>((resolve) =>
      NetServer.prototype.close.call(this.server, () => resolve()),
    );
    const timer = setTimeout(() => this.server.closeAllConnections(), this.times.timeoutMs);
    await closed;
    clearTimeout(timer);
  }
}
