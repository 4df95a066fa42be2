import { addUploadFileContents, dropUploadFileContents } from "@service-api/adapters-kysely";
import type { Kysely } from "kysely";

/** Uploaded files' bytes (`addUploadFileContents`), as blobs. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addUploadFileContents(db, { text: "text", blob: "blob" });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropUploadFileContents(db);
}
