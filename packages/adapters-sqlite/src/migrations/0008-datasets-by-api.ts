import { addDatasetsByApi, dropDatasetsByApi } from "@service-api/adapters-kysely";
import type { Kysely } from "kysely";

/** Datasets made by the API, the trash workspace and the jobs table (`addDatasetsByApi`), in SQLite's types. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addDatasetsByApi(db, { text: "text", integer: "integer" });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropDatasetsByApi(db);
}
