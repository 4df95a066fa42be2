import type { Expression, Kysely, RawBuilder, SelectQueryBuilder } from "kysely";
import type { DatabaseSchema } from "./schema.js";
import { wellFormedJson } from "./well-formed-json.js";

/** What the repositories' SQL needs to know of the database under them. */
export interface SqlFeatures {
  /**
   * True where the text in `column` holds a filter's text as the API reads it: ASCII letters in
   * either case, every other character only itself, `%`, `_` and `\` included (`matchesTextFilter`).
   * `argument` is `textFilterArgument` of that text, given as it is (a compiled read's argument).
   */
  containsText(column: string, argument: string): RawBuilder<boolean>;
  /** What `containsText` takes for a filter's text: the text (SQLite), or a pattern made of it. */
  textFilterArgument(text: string): string;
  /**
   * A condition on `documents` true for every document whose name may hold `keyword` (a superset of
   * the matches, which `containsText` then narrows), served by the name search index. Undefined
   * where the index cannot serve the keyword.
   */
  documentNameSearch(keyword: string): RawBuilder<boolean> | undefined;
  /**
   * Where the name search index holds every dataset's names (SQLite's, whose matches are built
   * whole before the dataset narrows them): the dataset size from which it is used. A smaller
   * dataset's names are read instead, so its search costs what the dataset holds, whatever other
   * workspaces hold. Undefined: the index is used whenever it can serve (PostgreSQL plans each
   * search with the table's statistics).
   */
  nameSearchFromDocuments?: number;
  /**
   * A condition on `chunks` true for every chunk of `documentId` whose content may hold `keyword`
   * (a superset of the matches, which `containsText` then narrows), served by the chunk content
   * index, whatever other documents hold. Undefined where the index cannot serve the keyword.
   */
  chunkContentSearch(documentId: string, keyword: string): RawBuilder<boolean> | undefined;
  /** Whether `SELECT … FOR UPDATE` locks rows (PostgreSQL); elsewhere writes are serial already. */
  locksRows: boolean;
  /**
   * Whether a request's reads of several tables go as one statement (PostgreSQL: each statement is
   * a round trip). Where false (SQLite, in process), they go as separate single-table statements,
   * which SQLite runs faster (`readSeparately`).
   */
  gathersReads: boolean;
  /** Whether a join may be `LATERAL`, a sub-select per row of the tables before it (PostgreSQL). */
  lateralJoins: boolean;
  /** Whether a WITH may hold INSERT, UPDATE or DELETE (PostgreSQL): several writes in one statement. */
  modifyingCtes: boolean;
  /**
   * The rows of a sub-select as one JSON array of objects, in its order (`[]` for none): rows of
   * another table read in the same statement. The driver may answer it parsed or as text.
   */
  jsonArrayFrom(query: Expression<unknown>): RawBuilder<unknown>;
  /** The one row of a sub-select as a JSON object (null for none), as `jsonArrayFrom` gives rows. */
  jsonObjectFrom(query: Expression<unknown>): RawBuilder<unknown>;
  /**
   * Whether `jsonArrayFrom` takes any sub-select, `selectAll` too (PostgreSQL's `json_agg` of whole
   * rows); SQLite's `json_object` needs every column named.
   */
  jsonOfWholeRows: boolean;
  /**
   * Strings as one statement parameter, however many there are, for `inList`: a request sets how
   * many ids it sends, and a parameter each would meet the database's limit on parameters (32,766
   * on SQLite, 65,535 on PostgreSQL).
   */
  listParameter(values: readonly string[]): unknown;
  /** True where `expression` is one of the strings of a `listParameter`. */
  inList(expression: Expression<unknown>, list: unknown): RawBuilder<boolean>;
  /**
   * Rows of strings, each `width` long, sent as one parameter (`rowsOf`'s JSON text, or a compiled
   * statement's argument standing for it), read back as a table of text columns
   * `column1`…`column{width}`, in the rows' order.
   */
  rowsFrom(parameter: unknown, width: number): RawBuilder<unknown>;
  /**
   * The count of documents holding a value of each `metadata_fields` row under `alias`, in a
   * select of fields: `joinCounts` adds what `count` sums, so apply it before selecting `count`.
   * The count is the row's `document_count`, plus on PostgreSQL its rows in `metadata_field_counts`
   * (migration 0009: the count spread over rows, so concurrent value writes do not all update one
   * row), joined and summed per field; on SQLite `joinCounts` adds nothing.
   */
  fieldDocumentCount(alias: string): {
    count: RawBuilder<number | string>;
    joinCounts<DB, TB extends keyof DB, O>(
      query: SelectQueryBuilder<DB, TB, O>,
    ): SelectQueryBuilder<DB, TB, O>;
  };
  /**
   * Which of a field's counter rows a new value for the document of that id raises (PostgreSQL,
   * migration 0009), so that writes can take them in one order; absent where a field's count is
   * one row.
   */
  fieldCountSlot?(documentId: Expression<unknown>): RawBuilder<number>;
  /**
   * Where rows lock: a condition that passes the dataset's turnstile, a lock queue that is fair,
   * unlike a row's (`DatasetPassage`). Put it in the `WHERE` of the select that locks the dataset's
   * row, so that it is passed before that row is locked. Absent where writes are serial anyway.
   */
  datasetTurnstile?(datasetId: string, passage: DatasetPassage): RawBuilder<boolean>;
  /**
   * A statement that writes values after waiting for their locks, each of its writes seeing what
   * committed while it waited (PostgreSQL: a function, migration 0011). Absent where a write does
   * not wait inside a statement (SQLite's writers are serial).
   */
  valueWriteAfterLocks?(write: ValueWrite): RawBuilder<unknown>;
  /**
   * Early lock release (PostgreSQL), for a write many requests make to one row, each committing in
   * turn: with `commitUnflushed` in its `WHERE`, a statement run outside a transaction commits
   * without waiting for the WAL flush, so the rows it locked are free to the next writer at once,
   * not after the disk's flush; `flush` runs a statement whose commit waits for the flush (and for
   * synchronous standbys) past every commit made before it, on the server it runs on. The write is
   * answered after a `flush` that started after it, with no connection lost in between
   * (`GroupFlush`): then it is as durable as any other commit; others may read it before. Absent
   * where a commit holds no row's lock through its flush (SQLite), or the role may not flush.
   */
  earlyLockRelease?: {
    commitUnflushed: RawBuilder<boolean>;
    flush(db: Kysely<DatabaseSchema>): Promise<unknown>;
  };
  /** Whether an error is a lock a statement would not wait for (`NOWAIT`) being held. */
  isLockUnavailable(error: unknown): boolean;
  /** Whether an error is a foreign key's refusal. */
  isForeignKeyViolation(error: unknown): boolean;
  /** Whether an error is a unique constraint's refusal. */
  isUniqueViolation(error: unknown): boolean;
  /** A number sent as a double precision float, whatever the context would infer (PostgreSQL). */
  real(value: number): RawBuilder<number>;
  /** The number a text holds (`NUMERIC_TEXT`: digits, a point, an exponent, spaces around), else null. */
  numericValue(text: Expression<unknown>): RawBuilder<number | null>;
  /** Whether a text holds another, case-sensitively, characters as they are (no pattern). */
  holdsText(text: Expression<unknown>, part: string): RawBuilder<boolean>;
  /** Unix seconds as UTC `YYYY-MM-DD HH:MM:SS`, as Dify shows the built-in dates. */
  utcDateTime(seconds: Expression<unknown>): RawBuilder<string>;
}

/**
 * How a statement passes a dataset's turnstile: alone (`exclusive`: what deletes the dataset's
 * fields or documents, or changes its documents' states), or beside others (`shared`: value writes),
 * waiting, or not (`try-shared`: false at once while one holds it alone or waits to). A row's shared
 * lock is granted past a waiting exclusive one, so a steady stream of value writes kept a field's
 * delete waiting for seconds; the turnstile queues them behind it.
 */
export type DatasetPassage = "exclusive" | "shared" | "try-shared";

/** A value write as rows: what `writeValues` derives from the changes. */
export interface ValueWrite {
  datasetId: string;
  /** Every document written, each once, in id order: the order their locks are taken in. */
  documentIds: readonly string[];
  /** `[document, field, value]`: the values set. */
  set: readonly (readonly string[])[];
  /** `[document, field]`: the values cleared. */
  cleared: readonly (readonly string[])[];
  /** The documents whose values become exactly those set: every other value of theirs goes. */
  replacing: readonly string[];
  /** `[document, field]`: the values a replacing document keeps (sets). */
  kept: readonly (readonly string[])[];
}

/** What `SqlFeatures.rowsFrom` takes for these rows: one parameter however many rows. */
export const rowsParameter = (rows: readonly (readonly string[])[]): string => wellFormedJson(rows);

/** Rows of strings, each `width` long, as a table of one parameter (`SqlFeatures.rowsFrom`). */
export const rowsOf = (features: SqlFeatures, rows: readonly (readonly string[])[], width: number) =>
  features.rowsFrom(rowsParameter(rows), width);
