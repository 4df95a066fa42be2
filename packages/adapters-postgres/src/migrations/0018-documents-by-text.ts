import { addDocumentsByText, dropDocumentsByText } from "@service-api/adapters-kysely";
import type { Kysely } from "kysely";

/** What indexing a document writes (`addDocumentsByText`): ids in the "C" collation, bigint times. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addDocumentsByText(db, {
    text: 'text collate "C"',
    integer: "bigint",
    flag: "boolean",
    true: "true",
  });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropDocumentsByText(db);
}
