import { Socket } from "node:net";
import type { Store } from "@service-api/ports";

/**
 * The sockets of a store's connections (the pool's and the access listener's), so that an open out
 * of time can close them at once. A server that took a connection and stopped answering (a network
 * partition, a stalled proxy) would otherwise keep what waits on it waiting for ever, closing it too:
 * pg ends an idle connection politely, waiting for the server to hang up.
 */
export class ConnectionSockets {
  readonly #open = new Set<Socket>();

  /** pg's `stream` option: each connection on a socket of its own, known until it closes. */
  readonly stream = (): Socket => {
    const socket = new Socket();
    this.#open.add(socket);
    socket.once("close", () => this.#open.delete(socket));
    return socket;
  };

  /** Closes every connection now, answering or not: what waits on one fails ("Connection terminated"). */
  cut(): void {
    for (const socket of this.#open) socket.destroy();
  }
}

/**
 * The store `opening` opens, unless `timeoutMs` (0: no limit) passes first: then `giveUp` is called
 * (it closes the connections, so that the open fails soon) and the open is refused at once; a store
 * that still opens is closed.
 */
export async function openedWithin(
  timeoutMs: number,
  opening: Promise<Store>,
  giveUp: () => void,
): Promise<Store> {
  if (!timeoutMs) return opening;
  let timer: NodeJS.Timeout | undefined;
  let outOfTime = false;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      outOfTime = true;
      giveUp();
      reject(
        new Error(
          `The PostgreSQL store did not open within ${timeoutMs} ms (the open time-out): the server stopped answering, or the migrations took longer`,
        ),
      );
    }, timeoutMs);
  });
  try {
    return await Promise.race([opening, deadline]);
  } finally {
    clearTimeout(timer);
    if (outOfTime)
      opening
        .then(
          (late) => late.close(),
          () => {},
        )
        .catch(() => {});
  }
}
