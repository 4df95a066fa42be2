import { addUploadFileContents, dropUploadFileContents } from "@service-api/adapters-kysely";
import type { Kysely } from "kysely";

/** Uploaded files' bytes (`addUploadFileContents`), as bytea, the key in the "C" collation as every id. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addUploadFileContents(db, { text: 'text collate "C"', blob: "bytea" });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropUploadFileContents(db);
}
