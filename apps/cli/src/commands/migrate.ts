import { parseArgs } from "node:util";
import { redactedDatabaseUrl } from "@service-api/stores";
import type { Command } from "../command.js";
import { EXIT, line } from "../io.js";
import { withAdmin } from "../runtime.js";

export const migrateCommand: Command = {
  name: "migrate",
  summary: "Create the database, or bring its schema up to date",
  help: `Usage: service-api migrate

Creates the database of DATABASE_URL if it does not exist and applies every pending migration.
The server does the same when it starts; run this before starting several servers at once.`,
  async run(args, io) {
    parseArgs({ args, options: {}, strict: true, allowPositionals: false });
    const databaseUrl = await withAdmin(io, async (admin) => admin.databaseUrl);
    line(io.stdout, `The database is up to date: ${redactedDatabaseUrl(databaseUrl)}`);
    return EXIT.ok;
  },
};
