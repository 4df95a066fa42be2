import type { Kysely } from "kysely";

/**
 * The search index's first layout, its postings keyed by their unit's random id. Migration 0022
 * replaced it (and indexes what is stored), so this one now creates nothing: a database that ran
 * it before keeps its tables until 0022 drops them.
 */
export async function up(_db: Kysely<unknown>): Promise<void> {}

export async function down(_db: Kysely<unknown>): Promise<void> {}
