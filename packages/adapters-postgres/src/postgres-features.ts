import { compiledRead, type SqlFeatures, wellFormedJson } from "@service-api/adapters-kysely";
import { NUMERIC_TEXT } from "@service-api/domain";
import { sql } from "kysely";
import { jsonArrayFrom, jsonObjectFrom } from "kysely/helpers/postgres";
import { FIELD_COUNT_SLOTS } from "./migrations/0009-field-count-slots.js";
import { TURNSTILE_CLASS } from "./migrations/0011-value-writes.js";
import { isLockNotAvailable } from "./postgres-unavailability.js";

/** What `fieldDocumentCount` adds to a select: a table outside the shared schema, so untyped. */
interface Joinable {
  leftJoin(table: string, left: string, right: string): Joinable;
  groupBy(column: string): Joinable;
}

/** Lone surrogates become U+FFFD, as the driver's UTF-8 encoding makes them in any other parameter. */
const wellFormed = (values: readonly string[]) => values.map((value) => value.toWellFormed());

const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LOWER = "abcdefghijklmnopqrstuvwxyz";

/**
 * `text` as a case-sensitive regular expression that matches it with ASCII letters in either case
 * (`[Gg]`) and every other character only itself: ASCII punctuation escaped (in PostgreSQL's
 * expressions a backslash before a character that is not a letter or digit means that character),
 * anything else as written.
 */
export function asciiFoldedPattern(text: string): string {
  return text.replace(/[\x20-\x7e]/g, (character) => {
    if (/[A-Za-z]/.test(character)) return `[${character.toUpperCase()}${character.toLowerCase()}]`;
    return /[0-9 ]/.test(character) ? character : `\\${character}`;
  });
}

/**
 * Texts longer than this are found by folding each value (`translate`, then `strpos`): a pattern's
 * compilation grows faster than its length (a 4,000-letter one took 34 ms, 16,000 letters 0.8 s).
 */
const LONGEST_PATTERN = 256;

/** A text filter's argument: `p` and a pattern, or `l` and the text with its ASCII letters lowered. */
function textFilterArgument(text: string): string {
  if (text.length > LONGEST_PATTERN) return `l${text.replace(/[A-Z]/g, (letter) => letter.toLowerCase())}`;
  return `p${asciiFoldedPattern(text)}`;
}

/** A commit that waits for the WAL flush past every earlier commit (migration 0013); named, as reads are. */
const flushCommits = compiledRead((db) =>
  db.selectNoFrom(sql<string>`setval('commit_flush_marks', 1)`.as("marked")),
);

/**
 * PostgreSQL's answers: `lower()` and ILIKE fold by the locale, beyond ASCII, so the filter is a
 * case-sensitive regular expression that folds ASCII letters itself (`asciiFoldedPattern`; with
 * `translate` and `strpos` it took 36 µs for a 200-character name, 18 times as long), or for a long
 * text `translate` and `strpos` still; the pg_trgm GIN index (migration 0006) serves an ILIKE
 * pattern, whose candidates the exact filter then narrows.
 */
export const postgresFeatures: SqlFeatures = {
  containsText: (column, argument) => {
    const [value, rest] = [sql.ref(column), sql`substr(${argument}::text, 2)`];
    return sql<boolean>`case when left(${argument}::text, 1) = 'p' then ${value} ~ ${rest}
      else strpos(translate(${value}, ${sql.lit(UPPER)}, ${sql.lit(LOWER)}), ${rest}) > 0 end`;
  },
  textFilterArgument,
  documentNameSearch: (keyword) => sql<boolean>`documents.name ilike ${likePattern(keyword)}`,
  // pg_trgm serves a pattern of three characters or more; a shorter one would read the whole index.
  chunkContentSearch: (_documentId, keyword) =>
    [...keyword].length < 3 ? undefined : sql<boolean>`chunks.content ilike ${likePattern(keyword)}`,
  locksRows: true,
  // `set_config(…, true)` lasts to the end of the statement's own transaction.
  earlyLockRelease: {
    commitUnflushed: sql<boolean>`set_config('synchronous_commit', 'off', true) = 'off'`,
    flush: (db) => flushCommits(db),
  },
  gathersReads: true,
  lateralJoins: true,
  jsonOfWholeRows: true,
  modifyingCtes: true,
  jsonArrayFrom,
  jsonObjectFrom,
  // Lone surrogates become U+FFFD, as the driver's UTF-8 encoding makes them in any other
  // parameter (PostgreSQL's JSON parser would refuse them).
  listParameter: wellFormed,
  inList: (expression, list) => sql<boolean>`${expression} = any(${list}::text[])`,
  rowsFrom: (parameter, width) =>
    sql`(select ${sql.join(
      Array.from(
        { length: width },
        (_, index) => sql`element ->> ${sql.lit(index)} as ${sql.ref(`column${index + 1}`)}`,
      ),
    )} from json_array_elements(${parameter}::json) with ordinality as list(element, position) order by position)`,
  fieldDocumentCount: (alias) => ({
    count: sql<string>`${sql.ref(`${alias}.document_count`)} + coalesce(sum(${sql.ref("field_counts.count")}), 0)`,
    joinCounts: (query) =>
      (query as unknown as Joinable)
        .leftJoin("metadata_field_counts as field_counts", "field_counts.field_id", `${alias}.id`)
        .groupBy(`${alias}.id`) as unknown as typeof query,
  }),
  fieldCountSlot: (documentId) => sql<number>`(hashtext(${documentId}) & ${sql.lit(FIELD_COUNT_SLOTS - 1)})`,
  datasetTurnstile: (datasetId, passage) => {
    const key = sql`${sql.lit(TURNSTILE_CLASS)}, hashtext(current_schema() || ' ' || ${datasetId}::text)`;
    if (passage === "try-shared") return sql<boolean>`pg_try_advisory_xact_lock_shared(${key})`;
    const lock = passage === "shared" ? sql`pg_advisory_xact_lock_shared` : sql`pg_advisory_xact_lock`;
    // These return void, which is not null.
    return sql<boolean>`${lock}(${key}) is not null`;
  },
  valueWriteAfterLocks: ({ datasetId, documentIds, set, cleared, replacing, kept }) =>
    sql`select write_document_values(${datasetId}::text, ${wellFormed(documentIds)}::text[],
      ${wellFormedJson(set)}::json, ${wellFormedJson(cleared)}::json, ${wellFormed(replacing)}::text[],
      ${wellFormedJson(kept)}::json)`,
  isLockUnavailable: isLockNotAvailable,
  isForeignKeyViolation: (error) => (error as { code?: unknown } | null)?.code === "23503",
  numericValue: (text) =>
    sql<number | null>`case when ${text} ~ ${NUMERIC_TEXT.source} then cast(${text} as double precision) end`,
  holdsText: (text, part) => sql<boolean>`strpos(${text}, ${part}) > 0`,
  utcDateTime: (seconds) =>
    sql<string>`to_char(to_timestamp(${seconds}) at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS')`,
  real: (value) => sql<number>`cast(${value} as double precision)`,
  isUniqueViolation: (error) => (error as { code?: unknown } | null)?.code === "23505",
};

/** An ILIKE pattern for "holds `text`": `%`, `_` and `\` escaped as themselves. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}
