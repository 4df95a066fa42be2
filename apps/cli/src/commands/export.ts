import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import type { Command } from "../command.js";
import { EXIT, line, UsageError, userPath } from "../io.js";
import { withAdmin } from "../runtime.js";

export const exportCommand: Command = {
  name: "export",
  summary: "Write the whole database in the import format",
  help: `Usage: service-api export [file]

Writes every workspace, with everything it holds, as a JSON file of the import format
(version 1), to the file or to standard output. API keys are written as their sha256 hashes,
which import accepts: export, then import into an empty database, gives the same data.`,
  async run(args, io) {
    const { positionals } = parseArgs({ args, options: {}, allowPositionals: true });
    if (positionals.length > 1) throw new UsageError("export takes at most one file.");
    const exported = await withAdmin(io, (admin) => admin.exportData.execute());
    const json = `${JSON.stringify(exported, null, 2)}\n`;
    const target = positionals[0];
    if (target === undefined || target === "-") {
      io.stdout.write(json);
    } else {
      await writeFile(userPath(io, target), json);
      line(io.stderr, `Exported ${exported.workspaces.length} workspace(s) to ${target}.`);
    }
    return EXIT.ok;
  },
};
