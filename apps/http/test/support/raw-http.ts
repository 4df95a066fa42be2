import { connect, type Socket } from "node:net";

/** A response as read off the wire. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function parse(text: string): { response: RawResponse; rest: string } | undefined {
  const end = text.indexOf("\r\n\r\n");
  if (end < 0) return undefined;
  const [statusLine = "", ...lines] = text.slice(0, end).split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers["content-length"] ?? 0);
  const bodyStart = end + 4;
  if (Buffer.byteLength(text.slice(bodyStart)) < length) return undefined;
  const body = Buffer.from(text.slice(bodyStart)).subarray(0, length).toString("utf8");
  const status = Number(statusLine.split(" ")[1]);
  return { response: { status, headers, body }, rest: text.slice(bodyStart + body.length) };
}

/**
 * One TCP connection speaking HTTP/1.1 by hand: for what fetch hides (keep-alive reuse, partial
 * requests, bytes Node's parser refuses). Responses are read in order, by Content-Length.
 */
export class RawConnection {
  readonly socket: Socket;
  #buffer = "";
  #waiters: (() => void)[] = [];
  /** Resolves when the server closes the connection (`reset` if it was reset rather than ended). */
  readonly closed: Promise<{ reset: boolean }>;

  constructor(url: string) {
    const { hostname, port } = new URL(url);
    this.socket = connect(Number(port), hostname);
    this.socket.setEncoding("utf8");
    this.socket.on("data", (chunk: string) => {
      this.#buffer += chunk;
      this.#wake();
    });
    let reset = false;
    this.socket.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ECONNRESET" || error.code === "EPIPE") reset = true;
    });
    this.closed = new Promise((resolve) =>
      this.socket.on("close", () => {
        this.#wake();
        resolve({ reset });
      }),
    );
  }

  #wake() {
    for (const wake of this.#waiters.splice(0)) wake();
  }

  write(text: string): void {
    this.socket.write(text);
  }

  /** Sends a GET (or other method, with an optional JSON body) and reads its response. */
  async request(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
    const lines = [`${method} ${path} HTTP/1.1`, "Host: 127.0.0.1"];
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    if (body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
    this.write(`${lines.join("\r\n")}\r\n\r\n${body ?? ""}`);
    return this.next();
  }

  /** The next response on the connection; rejects if the connection closes first. */
  async next(): Promise<RawResponse> {
    for (;;) {
      const parsed = parse(this.#buffer);
      if (parsed) {
        this.#buffer = parsed.rest;
        return parsed.response;
      }
      if (this.socket.destroyed || this.socket.readableEnded)
        throw new Error(`connection closed before a response: ${JSON.stringify(this.#buffer)}`);
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  close(): void {
    this.socket.destroy();
  }
}
