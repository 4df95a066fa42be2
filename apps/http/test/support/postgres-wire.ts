import type { Socket } from "node:net";

/** What a PostgreSQL client sent: statements it waited on (round trips) and statements it had parsed. */
export interface WireCounts {
  /** `Sync` and simple `Query` messages: each is one wait for the server. */
  roundTrips: number;
  /** `Parse` messages: statements the server had to parse and plan (a named one only once per connection). */
  parses: number;
  /** The text of each statement parsed, in order. */
  parsed: string[];
  /** `Describe` messages: each asks the server for a result's columns (a row description). */
  describes: number;
}

const PROTOCOL_VERSION_3 = 196608;

/**
 * Reads the PostgreSQL frontend protocol a client sends and counts what matters for latency. Before
 * the startup message, messages have no type byte (an SSL or GSS request, then the startup message).
 */
export function postgresWireCounter() {
  const counts: WireCounts = { roundTrips: 0, parses: 0, parsed: [], describes: 0 };
  const read = (socket: Socket) => {
    let buffered = Buffer.alloc(0);
    let started = false;
    socket.on("data", (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      for (;;) {
        const header = started ? 5 : 8;
        if (buffered.length < header) return;
        const length = started ? buffered.readInt32BE(1) + 1 : buffered.readInt32BE(0);
        if (buffered.length < length) return;
        if (!started) {
          started = buffered.readInt32BE(4) === PROTOCOL_VERSION_3;
        } else {
          count(buffered.subarray(0, length));
        }
        buffered = buffered.subarray(length);
      }
    });
  };
  const count = (message: Buffer) => {
    const type = String.fromCharCode(message[0]!);
    if (type === "S" || type === "Q") counts.roundTrips += 1;
    if (type === "D") counts.describes += 1;
    if (type === "Q") counts.parsed.push(message.toString("utf8", 5, message.length - 1));
    if (type === "P") {
      counts.parses += 1;
      const nameEnd = message.indexOf(0, 5);
      counts.parsed.push(message.toString("utf8", nameEnd + 1, message.indexOf(0, nameEnd + 1)));
    }
  };
  return {
    /** Give it every connection's client side, before any data flows. */
    read,
    /** The counts since the last call, and starts counting afresh. */
    take(): WireCounts {
      const taken = { ...counts, parsed: [...counts.parsed] };
      counts.roundTrips = 0;
      counts.parses = 0;
      counts.parsed = [];
      counts.describes = 0;
      return taken;
    },
  };
}
