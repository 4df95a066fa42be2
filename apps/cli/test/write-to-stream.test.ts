import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { writeToStream } from "../src/io.js";

/** Standard output whose reader went away after the first write: it takes writes and then fails. */
function closedAfterFirstWrite() {
  let writes = 0;
  return new Writable({
    highWaterMark: 1 << 30,
    write(_chunk, _encoding, done) {
      writes += 1;
      done(writes === 1 ? null : Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
    },
  });
}

describe("writeToStream", () => {
  it("fails the export, not the process, when the stream fails between writes", async () => {
    const stream = closedAfterFirstWrite();
    const written = writeToStream(stream, async (write) => {
      // Pieces past the chunk size, so that several writes reach the stream.
      for (let piece = 0; piece < 6; piece++) {
        await write("x".repeat(1 << 19));
        await new Promise((resolve) => setImmediate(resolve));
      }
      return "done";
    });
    await expect(written).rejects.toThrow("write EPIPE");
    expect(stream.listenerCount("error")).toBe(0);
  });

  it("fails the export when the stream fails after the last write was taken", async () => {
    let writes = 0;
    const stream = new Writable({
      highWaterMark: 1 << 30,
      // As a pipe does: a write is taken at once and fails later, when the reader has gone.
      write(_chunk, _encoding, done) {
        writes += 1;
        const error = writes === 2 ? Object.assign(new Error("write EPIPE"), { code: "EPIPE" }) : null;
        setImmediate(() => done(error));
      },
    });
    const written = writeToStream(stream, async (write) => {
      await write("x".repeat(1 << 20));
      await write("y".repeat(1 << 20));
      return "done";
    });
    await expect(written).rejects.toThrow("write EPIPE");
    expect(stream.listenerCount("error")).toBe(0);
  });

  it("writes everything and answers what the producer answered when the stream takes it", async () => {
    const chunks: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        chunks.push(String(chunk));
        done();
      },
    });
    const answer = await writeToStream(stream, async (write) => {
      await write("{");
      await write("}");
      return 2;
    });
    expect(answer).toBe(2);
    expect(chunks.join("")).toBe("{}");
  });
});
