import { resolve } from "node:path";

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
