import type { Clock, IdGenerator, Store, TokenHasher } from "@service-api/ports";
import { importFileSchema } from "../format/import-file-schema.js";
import { type ImportIssue, InvalidImportError, pathOf } from "../format/issues.js";
import { unstorableTextPaths } from "../format/unstorable-text.js";
import { assignIds } from "./assign-ids.js";
import { checkFile } from "./check-file.js";
import { emptySummary, type ImportSummary } from "./import-summary.js";
import { writeImport } from "./write-import.js";

export interface ImportProgress {
  documentsDone: number;
  documentsTotal: number;
}

/**
 * Imports a file of the import format: all of it in one transaction, or nothing. Importing the same
 * file again changes nothing; a changed file updates what changed. A bad file throws an
 * {@link InvalidImportError} naming the JSON path of every problem, and so does a file that names a
 * record stored under another owner (records never move), changes a stored tag's or field's type
 * (the API never does), or gives a record a name a stored one of its kind holds.
 */
export class ImportData {
  constructor(
    private readonly store: Store,
    private readonly ids: IdGenerator,
    private readonly hasher: TokenHasher,
    private readonly clock: Clock,
  ) {}

  async execute(content: unknown, onProgress?: (progress: ImportProgress) => void): Promise<ImportSummary> {
    const unstorable = unstorableTextPaths(content);
    if (unstorable.length > 0) {
      throw new InvalidImportError(
        unstorable.map((path) => ({ path, message: "text with a NUL or a lone surrogate cannot be stored" })),
      );
    }
    const parsed = importFileSchema.safeParse(content);
    if (!parsed.success) {
      throw new InvalidImportError(
        parsed.error.issues.map(
          (issue): ImportIssue => ({ path: pathOf(issue.path), message: issue.message }),
        ),
      );
    }
    const file = parsed.data;
    assignIds(file, this.ids);
    const issues = checkFile(file);
    if (issues.length > 0) throw new InvalidImportError(issues);

    const documentsTotal = file.workspaces.reduce(
      (sum, workspace) =>
        sum + workspace.datasets.reduce((count, dataset) => count + dataset.documents.length, 0),
      0,
    );
    // Fresh for each run of the work: a store may run a transaction again after a conflict. Its
    // counts kept once, at the end: per row, they cost a database the square of the rows.
    return this.store.transaction(
      async (repositories) => {
        const summary = emptySummary();
        const refused: ImportIssue[] = [];
        let documentsDone = 0;
        await writeImport(file, {
          repositories,
          clock: this.clock,
          ids: this.ids,
          hasher: this.hasher,
          summary,
          onDocument: () => onProgress?.({ documentsDone: ++documentsDone, documentsTotal }),
          refuse: (path, message) => refused.push({ path, message }),
        });
        if (refused.length > 0) throw new InvalidImportError(refused);
        return summary;
      },
      { manyRows: true },
    );
  }
}
