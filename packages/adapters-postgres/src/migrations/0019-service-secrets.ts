import { addServiceSecrets, dropServiceSecrets } from "@service-api/adapters-kysely";
import type { Kysely } from "kysely";

/** The service's own secrets (`addServiceSecrets`), their text in the "C" collation as every id's. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addServiceSecrets(db, { text: 'text collate "C"' });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropServiceSecrets(db);
}
