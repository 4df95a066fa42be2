import { type SqlFeatures, wellFormedJson } from "@service-api/adapters-kysely";
import { sql } from "kysely";
import { jsonArrayFrom, jsonObjectFrom } from "kysely/helpers/sqlite";
import { CHUNK_KEYS_PER_DOCUMENT } from "./chunk-search-keys.js";

/**
 * SQLite's answers: `lower()` folds ASCII letters only, and `instr` finds a substring with no
 * pattern characters; names (migration 0006) and chunk contents (migration 0013) are searched in
 * FTS5 trigram indexes by a quoted phrase, which needs three characters at least.
 */
export const sqliteFeatures: SqlFeatures = {
  containsText: (column, argument) => sql<boolean>`instr(lower(${sql.ref(column)}), lower(${argument})) > 0`,
  textFilterArgument: (text) => text,
  documentNameSearch(keyword) {
    if ([...keyword].length < 3) return undefined;
    return sql<boolean>`documents.id in (select keys.document_id from document_names
      join document_search_keys keys on keys.seq = document_names.rowid
      where document_names match ${quotedPhrase(keyword)})`;
  },
  // Reading 5,000 names takes about 2 ms; the index's matches may be a whole database's.
  nameSearchFromDocuments: 5_000,
  chunkContentSearch(documentId, keyword) {
    if ([...keyword].length < 3) return undefined;
    // The document's keys are one rowid range (migration 0013), which FTS5 seeks to.
    const keys = sql.lit(CHUNK_KEYS_PER_DOCUMENT);
    const first = sql`(select seq * ${keys} from document_search_keys where document_id = ${documentId})`;
    return sql<boolean>`chunks.id in (select keys.chunk_id from chunk_contents
      join chunk_search_keys keys on keys.seq = chunk_contents.rowid
      where chunk_contents match ${quotedPhrase(keyword)}
        and chunk_contents.rowid between ${first} and ${first} + ${keys} - 1)`;
  },
  locksRows: false,
  gathersReads: false,
  lateralJoins: false,
  jsonOfWholeRows: false,
  modifyingCtes: false,
  jsonArrayFrom: (query) => jsonArrayFrom(query as never),
  jsonObjectFrom: (query) => jsonObjectFrom(query as never),
  // Lone surrogates become U+FFFD, as the driver's UTF-8 encoding makes them in any other parameter.
  listParameter: (values) => wellFormedJson(values),
  inList: (expression, list) => sql<boolean>`${expression} in (select value from json_each(${list}))`,
  rowsFrom: (parameter, width) =>
    sql`(select ${sql.join(
      Array.from(
        { length: width },
        (_, index) => sql`value ->> ${sql.lit(index)} as ${sql.ref(`column${index + 1}`)}`,
      ),
    )} from json_each(${parameter}) order by key)`,
  fieldDocumentCount: (alias) => ({
    count: sql<number>`${sql.ref(`${alias}.document_count`)}`,
    joinCounts: (query) => query,
  }),
  isLockUnavailable: () => false,
  isForeignKeyViolation: (error) =>
    (error as { code?: unknown } | null)?.code === "SQLITE_CONSTRAINT_FOREIGNKEY",
  numericValue: (text) => sql<number | null>`numeric_value(${text})`,
  holdsText: (text, part) => sql<boolean>`instr(${text}, ${part}) > 0`,
  utcDateTime: (seconds) => sql<string>`strftime('%Y-%m-%d %H:%M:%S', ${seconds}, 'unixepoch')`,
  real: (value) => sql<number>`cast(${value} as real)`,
  isUniqueViolation: (error) => {
    const code = (error as { code?: unknown } | null)?.code;
    return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
  },
};

/** An FTS5 query of one phrase, the text as it is: no operator, column filter or prefix is read in it. */
function quotedPhrase(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}
