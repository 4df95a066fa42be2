import { addServiceSecrets, dropServiceSecrets } from "@service-api/adapters-kysely";
import type { Kysely } from "kysely";

/** The service's own secrets (`addServiceSecrets`), as text. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addServiceSecrets(db, { text: "text" });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropServiceSecrets(db);
}
