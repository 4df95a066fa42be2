import type { Server, ServerResponse } from "node:http";
import { Server as NetServer, type Socket } from "node:net";
import { closingAs } from "../observability/response-status.js";
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
  /** The open connections, known from the first: per connection, not per request. */
  readonly #connections = new Set<Socket>();

  /** Construct it before the server listens, so that it knows every connection. */
  constructor(
    private readonly server: Server,
    private readonly lifecycle: ServerLifecycle,
    private readonly times: ShutdownTimes,
  ) {
    server.on("connection", (socket: Socket) => {
      this.#connections.add(socket);
      socket.once("close", () => this.#connections.delete(socket));
    });
  }

  run(): Promise<void> {
    this.#done ??= this.#run();
    return this.#done;
  }

  skipDrain(): void {
    this.#endDrain?.();
  }

  async #run(): Promise<void> {
    this.lifecycle.startDraining();
    this.#closeAfterResponsesUnderWay();
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
    const timer = setTimeout(() => this.#closeAll(), this.times.timeoutMs);
    await closed;
    clearTimeout(timer);
  }

  /** Past the time-out: every connection closes, a response still under way counted as a 503. */
  #closeAll(): void {
    for (const socket of this.#connections) {
      const response = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
      if (response) closingAs(response, 503);
    }
    this.server.closeAllConnections();
    // And what left Node's list of connections: a refused CONNECT's socket, lingering.
    for (const socket of this.#connections) socket.destroy();
  }

  /**
   * Requests that came before the drain and are still being answered close their connection too,
   * as those that come during it do (`closeWhileDraining`). Node keeps the response a connection
   * is answering as `_httpMessage`.
   */
  #closeAfterResponsesUnderWay(): void {
    for (const socket of this.#connections) {
      const response = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
      if (response && !response.headersSent) response.setHeader("Connection", "close");
    }
  }
}
