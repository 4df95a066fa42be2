import type { RawBuilder } from "kysely";

/** What the repositories' SQL needs to know of the database under them. */
export interface SqlFeatures {
  /**
   * True where the text in `column` holds `text` as the API's text filters read it: ASCII letters in
   * either case, every other character only itself, `%`, `_` and `\` included (`matchesTextFilter`).
   */
  containsText(column: string, text: string): RawBuilder<boolean>;
  /**
   * A condition on `documents` true for every document whose name may hold `keyword` (a superset of
   * the matches, which `containsText` then narrows), served by the name search index. Undefined
   * where the index cannot serve the keyword.
   */
  documentNameSearch(keyword: string): RawBuilder<boolean> | undefined;
  /** Whether `SELECT … FOR UPDATE` locks rows (PostgreSQL); elsewhere writes are serial already. */
  locksRows: boolean;
  /** Whether an error is a unique constraint's refusal. */
  isUniqueViolation(error: unknown): boolean;
}
