import { addDatasetsByApi, dropDatasetsByApi } from "@service-api/adapters-kysely";
import type { Kysely } from "kysely";

/**
 * Datasets made by the API, the trash workspace and the jobs table (`addDatasetsByApi`), in
 * PostgreSQL's types: text in the "C" collation (as every id and name), bigint times.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addDatasetsByApi(db, { text: 'text collate "C"', integer: "bigint" });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropDatasetsByApi(db);
}
