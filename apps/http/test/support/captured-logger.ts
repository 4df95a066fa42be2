import { Writable } from "node:stream";
import { createLogger } from "../../src/index.js";

/** A logger at `info` whose lines (parsed) the test reads. */
export function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { logger: createLogger("info", sink), lines };
}
