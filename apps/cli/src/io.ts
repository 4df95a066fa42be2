import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { rmSync } from "node:fs";
import { open, realpath, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";

/** Where a command reads and writes: the process's streams, or a test's. */
export interface CommandIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream;
  env: Record<string, string | undefined>;
}

/** Exit codes a script can rely on. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** A mistake in how the command was called: its message, then the usage, and exit code 2. */
export class UsageError extends Error {}

/** A file argument, relative to where the user ran the command (pnpm and npm run scripts from the root). */
export function userPath(io: CommandIo, path: string): string {
  return resolve(io.env.INIT_CWD ?? process.cwd(), path);
}

export function line(stream: NodeJS.WritableStream, text = ""): void {
  stream.write(`${text}\n`);
}

/** Takes the next piece of a long text; resolves once the destination can take more. */
export type WriteText = (text: string) => Promise<void>;

/** Characters gathered before they are written: a few large writes rather than many small ones. */
const CHUNK_LENGTH = 1 << 20;

/** `produce`'s text, gathered into chunks that `flush` writes one at a time. */
async function inChunks<T>(
  produce: (write: WriteText) => Promise<T>,
  flush: (text: string) => Promise<void>,
): Promise<T> {
  let pending: string[] = [];
  let length = 0;
  const flushPending = async () => {
    const text = pending.join("");
    pending = [];
    length = 0;
    if (text !== "") await flush(text);
  };
  const result = await produce(async (text) => {
    pending.push(text);
    length += text.length;
    if (length >= CHUNK_LENGTH) await flushPending();
  });
  await flushPending();
  return result;
}

/**
 * Writes `produce`'s text to `stream` as it comes, waiting whenever the stream's buffer is full. A
 * stream that fails (a reader that went away: `EPIPE`) fails the next write, never the process.
 */
export async function writeToStream<T>(
  stream: NodeJS.WritableStream,
  produce: (write: WriteText) => Promise<T>,
): Promise<T> {
  let failure: unknown;
  const failed = (error: unknown) => {
    failure ??= error;
  };
  stream.on("error", failed);
  try {
    const result = await inChunks(produce, async (text) => {
      if (failure !== undefined) throw failure;
      if (!stream.write(text)) await once(stream, "drain");
    });
    // Written means flushed: an empty write's callback comes once every write before it has ended.
    await new Promise<void>((resolve, reject) =>
      stream.write("", (error) => (error ? reject(error) : resolve())),
    );
    if (failure !== undefined) throw failure;
    return result;
  } finally {
    stream.off("error", failed);
  }
}

/**
 * Writes `produce`'s text as the file at `path`, never leaving it half written: into a new file
 * beside it (beside the file a symbolic link names), flushed to disk and then renamed over it,
 * with the permissions of the file it replaces. When `produce` or a write fails, or a stop signal
 * comes (Ctrl-C), the new file is removed and `path` is left as it was.
 */
export async function writeFileAtomically<T>(
  given: string,
  produce: (write: WriteText) => Promise<T>,
): Promise<T> {
  // Through a symbolic link to the file it names, keeping that file's permissions.
  const path = await realpath(given).catch(() => given);
  const kept = await stat(path).then(
    (stats) => stats.mode & 0o7777,
    () => undefined,
  );
  const temporary = join(dirname(path), `.${basename(path)}.${randomUUID()}.tmp`);
  // A new file is its owner's alone: an export holds every workspace's data and its keys' hashes.
  const file = await open(temporary, "wx", kept ?? 0o600);
  const stopped = removeOnStopSignals(temporary);
  try {
    // `open` takes the umask off the mode it is given: the replaced file's is set as it was.
    if (kept !== undefined) await file.chmod(kept);
    const result = await inChunks(produce, (text) => file.writeFile(text));
    await file.sync();
    await file.close();
    await rename(temporary, path);
    return result;
  } catch (error) {
    await file.close().catch(() => {});
    await rm(temporary, { force: true });
    throw error;
  } finally {
    stopped.off();
  }
}

const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/**
 * Until `off()`, a stop signal removes the file at `path` and then stops the process as the signal
 * does without a listener (a shell sees 130 for Ctrl-C).
 */
function removeOnStopSignals(path: string): { off(): void } {
  const stop = (signal: NodeJS.Signals) => {
    try {
      rmSync(path, { force: true });
    } catch {
      // Left behind (not ours to remove any more, say): the signal still stops the process.
    } finally {
      off();
      process.kill(process.pid, signal);
    }
  };
  const off = () => {
    for (const signal of STOP_SIGNALS) process.off(signal, stop);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, stop);
  return { off };
}
