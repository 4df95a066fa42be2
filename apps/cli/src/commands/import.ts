import { isUtf8 } from "node:buffer";
import { readFile } from "node:fs/promises";
import { buffer } from "node:stream/consumers";
import { parseArgs } from "node:util";
import { type ImportProgress, type ImportSummary, InvalidImportError } from "@service-api/provisioning";
import type { Command } from "../command.js";
import { type CommandIo, EXIT, line, UsageError, userPath } from "../io.js";
import { withAdmin } from "../runtime.js";

export const importCommand: Command = {
  name: "import",
  summary: "Load an import file (format v1) into the database",
  help: `Usage: service-api import <file | -> [--progress]

Reads a JSON file of the import format, version 1 (its JSON Schema is
packages/provisioning/import-format.schema.json), checks all of it and writes it in one
transaction: everything or nothing. Importing the same file twice changes nothing; a changed
file updates what changed. Records never move: a file naming an id stored under another owner
(another workspace's dataset, say), changing a stored tag's or field's type, or giving a record a
name a stored one of its kind holds is refused. Keys may be given in plaintext (hashed on import)
or as sha256:<hex>.

  -             read the file from standard input
  --progress    always show progress (it is shown anyway when an import takes more than a second)

Exit codes: 0 imported, 1 the file was refused (every problem is listed) or could not be read,
2 wrong usage.`,
  async run(args, io) {
    const { positionals, values } = parseArgs({
      args,
      options: { progress: { type: "boolean", default: false } },
      allowPositionals: true,
    });
    if (positionals.length !== 1)
      throw new UsageError("import takes exactly one file (or - for standard input).");
    const source = positionals[0]!;
    const content = await readJson(source, io);
    if (content === undefined) return EXIT.failed;
    const progress = progressReporter(io, values.progress);
    try {
      const summary = await withAdmin(io, (admin) => admin.importData.execute(content, progress.update));
      progress.done();
      line(io.stdout, `Imported ${describe(summary)}.`);
      return EXIT.ok;
    } catch (error) {
      progress.done();
      if (!(error instanceof InvalidImportError)) throw error;
      line(io.stderr, `${error.message}\nNothing was imported.`);
      return EXIT.failed;
    }
  },
};

async function readJson(source: string, io: CommandIo): Promise<unknown> {
  const name = source === "-" ? "standard input" : source;
  let bytes: Buffer;
  try {
    bytes = source === "-" ? await buffer(io.stdin) : await readFile(userPath(io, source));
  } catch (error) {
    line(io.stderr, `Cannot read ${name}: ${(error as Error).message}`);
    return undefined;
  }
  // Decoding would put U+FFFD in place of the bad bytes, and the import would store it.
  if (!isUtf8(bytes)) {
    line(
      io.stderr,
      `${name} is not valid UTF-8, the encoding of JSON: save it as UTF-8.\nNothing was imported.`,
    );
    return undefined;
  }
  const raw = bytes.toString("utf8");
  try {
    // Editors on Windows save UTF-8 with a byte order mark; JSON.parse refuses it.
    return JSON.parse(raw.startsWith("\uFEFF") ? raw.slice(1) : raw);
  } catch (error) {
    line(io.stderr, `${name} is not valid JSON: ${(error as Error).message}\nNothing was imported.`);
    return undefined;
  }
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;

function describe(summary: ImportSummary): string {
  return [
    plural(summary.workspaces, "workspace"),
    plural(summary.datasets, "dataset"),
    plural(summary.documents, "document"),
    plural(summary.apps, "app"),
    plural(summary.conversations, "conversation"),
    plural(summary.apiKeys, "API key"),
  ].join(", ");
}

/** Shows progress on stderr once an import has run for a second (or always with --progress). */
function progressReporter(io: CommandIo, always: boolean) {
  const started = Date.now();
  let lastShown = 0;
  let shown = false;
  return {
    update: ({ documentsDone, documentsTotal }: ImportProgress) => {
      const now = Date.now();
      const due = always || now - started > 1000;
      if (!due || (now - lastShown < 200 && documentsDone < documentsTotal)) return;
      lastShown = now;
      shown = true;
      const message = `Importing documents: ${documentsDone}/${documentsTotal}`;
      io.stderr.write(io.stderr.isTTY ? `\r${message}` : `${message}\n`);
    },
    done: () => {
      if (shown && io.stderr.isTTY) io.stderr.write("\n");
    },
  };
}
