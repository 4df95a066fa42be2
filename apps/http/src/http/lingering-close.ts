import type { IncomingMessage, RequestListener, Server } from "node:http";
import { Socket } from "node:net";

/**
 * How long a closing connection keeps reading what its client still sends: at most 30 s in all,
 * and 5 s without a byte (nginx's `lingering_time` and `lingering_timeout`), and at most 256 MiB.
 */
export const LINGER = { totalMs: 30_000, idleMs: 5_000, bytes: 256 * 1024 * 1024 } as const;
const CHECK_EVERY_MS = 250;

const lingering = new WeakSet<Socket>();
const closingLingeringly = new WeakSet<object>();

/** Whether `socket` is in its lingering close: what Node still reports of it is no new request. */
export function isLingering(socket: object): boolean {
  return lingering.has(socket as Socket);
}

/**
 * Whether a request's body is declared and has not all arrived. (`complete` alone is no sign: a
 * request without a body is not complete yet while its first handlers run.)
 */
export function bodyStillComing(request: IncomingMessage): boolean {
  const { headers } = request;
  const declared = headers["transfer-encoding"] !== undefined || Number(headers["content-length"]) > 0;
  return declared && !request.complete;
}

/** Below this, a refused body is read and dropped as Node does, and the connection kept. */
const SMALL_BODY_BYTES = 64 * 1024;

/**
 * Whether a refusal should close the connection: a body of unknown length, or one over 64 KiB,
 * is still coming. A small one is cheaper to read than a new connection (a 429's client would
 * reconnect for every refusal).
 */
export function largeBodyStillComing(request: IncomingMessage): boolean {
  const { headers } = request;
  const large =
    headers["transfer-encoding"] !== undefined || Number(headers["content-length"]) > SMALL_BODY_BYTES;
  return large && bodyStillComing(request);
}

/**
 * Whether the server `socket` belongs to closes it lingering (`closeLingeringly`): a host's server
 * that embeds the router may not, and would reset it.
 */
export function closesLingeringly(socket: object): boolean {
  return closingLingeringly.has(socket);
}

/**
 * Closes a connection whose client may still be sending (a body refused unread, headers refused
 * half-way): the answer already written goes out, then our side ends and what arrives is read and
 * dropped until the client closes its side or a bound of `LINGER` is reached. Closing at once
 * would reset a connection whose unread bytes are still arriving, and a client still writing
 * would lose the answer with it (`EPIPE`, `ECONNRESET`).
 */
export function lingerThenClose(socket: Socket, limits: typeof LINGER = LINGER): void {
  if (lingering.has(socket) || socket.destroyed) return;
  lingering.add(socket);
  socket.end();
  socket.resume();
  const startedAt = performance.now();
  const firstByte = socket.bytesRead;
  let lastByte = firstByte;
  let lastHeardAt = startedAt;
  const check = setInterval(() => {
    const now = performance.now();
    if (socket.bytesRead !== lastByte) {
      lastByte = socket.bytesRead;
      lastHeardAt = now;
    }
    if (
      now - startedAt >= limits.totalMs ||
      now - lastHeardAt >= limits.idleMs ||
      lastByte - firstByte >= limits.bytes
    )
      socket.destroy();
  }, CHECK_EVERY_MS).unref();
  socket.once("close", () => clearInterval(check));
}

/**
 * Makes the server's closes lingering where the client may still be sending: Node closes a
 * connection after its last response (`Connection: close`) by destroying it once the answer is
 * written, whether or not the request's body has all arrived. Each connection's `destroySoon`
 * (what Node calls then) lingers instead while the request it answered is not complete.
 */
export function closeLingeringly(server: Server): void {
  const requests = new WeakMap<Socket, IncomingMessage>();
  const remember = (request: IncomingMessage) => requests.set(request.socket, request);
  // Heard before the listeners that answer them (registered after): a 417 lingers too.
  server.on("request", remember);
  server.on("checkExpectation", remember);
  server.on("connection", (socket: Socket) => {
    closingLingeringly.add(socket);
    socket.destroySoon = function destroySoon(this: Socket) {
      const request = requests.get(this);
      if (request && bodyStillComing(request)) lingerThenClose(this);
      else Socket.prototype.destroySoon.call(this);
    };
  });
}

/**
 * The server's request listener: a request Node still parses on a connection in its lingering
 * close (its headers finished after a 408, a request pipelined after a refusal) is never served,
 * and the connection is closed at once. A client that goes on sending requests to a connection
 * told to close is not heard further: parsing what it sends would make objects as fast as it sends.
 */
export function unlessLingering(listener: RequestListener): RequestListener {
  return (request, response) => {
    if (lingering.has(request.socket)) request.socket.destroy();
    else listener(request, response);
  };
}
