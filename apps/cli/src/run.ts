import { DomainError, StoreUnavailableError } from "@service-api/domain";
import type { Command } from "./command.js";
import { appsCommand } from "./commands/apps.js";
import { demoCommand } from "./commands/demo.js";
import { exportCommand } from "./commands/export.js";
import { importCommand } from "./commands/import.js";
import { keysCommand } from "./commands/keys.js";
import { migrateCommand } from "./commands/migrate.js";
import { workspacesCommand } from "./commands/workspaces.js";
import { type CommandIo, EXIT, line, UsageError } from "./io.js";

const COMMANDS: Command[] = [
  migrateCommand,
  importCommand,
  exportCommand,
  demoCommand,
  workspacesCommand,
  appsCommand,
  keysCommand,
];

function overview(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length));
  return [
    "Usage: service-api <command> [options]",
    "",
    "Administers the service-api database named by DATABASE_URL: postgres://… for PostgreSQL, a path or",
    "file: URL for SQLite (default file:./data/service-api.sqlite).",
    "",
    "Commands:",
    ...COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    "",
    "Run service-api <command> --help for a command's options.",
    "Exit codes: 0 success, 1 the operation failed (the reason is on stderr), 2 wrong usage.",
  ].join("\n");
}

const isNodeUsageError = (error: unknown) =>
  typeof (error as { code?: unknown })?.code === "string" &&
  (error as { code: string }).code.startsWith("ERR_PARSE_ARGS");

/** Runs one command line; returns the exit code. Nothing here calls process.exit. */
export async function run(args: string[], io: CommandIo): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    line(name === undefined ? io.stderr : io.stdout, overview());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (!command) {
    line(io.stderr, `Unknown command "${name}".\n\n${overview()}`);
    return EXIT.usage;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    line(io.stdout, command.help);
    return EXIT.ok;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError || isNodeUsageError(error)) {
      line(io.stderr, `${(error as Error).message}\n\n${command.help}`);
      return EXIT.usage;
    }
    if (error instanceof StoreUnavailableError) {
      line(io.stderr, `service-api ${name} failed: ${unavailability(error)}`);
      return EXIT.failed;
    }
    if (error instanceof DomainError) {
      line(io.stderr, error.message);
      return EXIT.failed;
    }
    line(io.stderr, `service-api ${name} failed: ${(error as Error).message ?? String(error)}`);
    return EXIT.failed;
  }
}

/** The database's own words, where the API says only "temporarily unable to service your request". */
function unavailability(error: StoreUnavailableError): string {
  const cause = error.cause instanceof Error ? error.cause.message : undefined;
  return `the database is unavailable${cause ? ` (${cause})` : ""}. Try again.`;
}
