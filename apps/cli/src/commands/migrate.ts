import { parseArgs } from "node:util";
import { redactedDatabaseUrl } from "@service-api/stores";
import type { Command } from "../command.js";
import { EXIT, line } from "../io.js";
import { withAdmin } from "../runtime.js";

export const migrateCommand: Command = {
  name: "migrate",
  summary: "Bring the database's schema up to date (creating a SQLite file)",
  help: `Usage: service-api migrate

Applies every pending migration to the database of DATABASE_URL. A SQLite file that does not
exist is created; a PostgreSQL database must exist already (create it with createdb or CREATE
DATABASE): migrate creates its tables, not the database.
The server does the same when it starts; run this before starting several servers at once.`,
  async run(args, io) {
    parseArgs({ args, options: {}, strict: true, allowPositionals: false });
    const databaseUrl = await withAdmin(io, async (admin) => admin.databaseUrl);
    line(io.stdout, `The database is up to date: ${redactedDatabaseUrl(databaseUrl)}`);
    return EXIT.ok;
  },
};
