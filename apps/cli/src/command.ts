import type { CommandIo } from "./io.js";

/** One command of the CLI: how it is called, and what it does. It returns the exit code. */
export interface Command {
  name: string;
  summary: string;
  /** The full help text, starting with the usage line. */
  help: string;
  run(args: string[], io: CommandIo): Promise<number>;
}
