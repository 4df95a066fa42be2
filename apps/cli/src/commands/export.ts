import { parseArgs } from "node:util";
import type { Command } from "../command.js";
import { EXIT, line, UsageError, userPath, writeFileAtomically, writeToStream } from "../io.js";
import { withAdmin } from "../runtime.js";

export const exportCommand: Command = {
  name: "export",
  summary: "Write the whole database in the import format",
  help: `Usage: service-api export [file]

Writes every workspace, with everything it holds, as a JSON file of the import format
(version 1), to the file or to standard output. API keys are written as their sha256 hashes,
which import accepts: export, then import into an empty database, gives the same data.

The export reads one consistent state of the database, however it changes meanwhile, and is
written as it is read, so a database of any size fits. A file is written beside the target and
renamed over it once complete: a failed export leaves the target as it was. A new file is
readable by its owner only (0600: it holds the keys' hashes); a replaced one keeps its
permissions. The database must exist: a DATABASE_URL naming no SQLite file is refused rather
than exported as empty.`,
  async run(args, io) {
    const { positionals } = parseArgs({ args, options: {}, allowPositionals: true });
    if (positionals.length > 1) throw new UsageError("export takes at most one file.");
    const target = positionals[0];
    const toStandardOutput = target === undefined || target === "-";
    const summary = await withAdmin(
      io,
      (admin) =>
        toStandardOutput
          ? writeToStream(io.stdout, (write) => admin.exportData.writeTo(write))
          : writeFileAtomically(userPath(io, target), (write) => admin.exportData.writeTo(write)),
      { existingDatabase: true },
    );
    if (!toStandardOutput) {
      line(
        io.stderr,
        `Exported ${summary.workspaces} workspace(s), ${summary.documents} document(s) to ${target}.`,
      );
    }
    return EXIT.ok;
  },
};
