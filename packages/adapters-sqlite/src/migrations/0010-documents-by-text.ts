import { addDocumentsByText, dropDocumentsByText } from "@service-api/adapters-kysely";
import type { Kysely } from "kysely";

/** What indexing a document writes (`addDocumentsByText`), in SQLite's types. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addDocumentsByText(db, { text: "text", integer: "integer", flag: "integer", true: "1" });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropDocumentsByText(db);
}
