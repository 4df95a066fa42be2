import { type Kysely, sql } from "kysely";

const VALUE_WRITE = sql.raw("write_document_values(text, text[], json, json, text[], json)");

/**
 * The value write's function (migration 0011) keeps one plan per statement for any call. PL/pgSQL
 * plans a statement as PostgreSQL plans a named one: with the call's values first, then once for any
 * values unless that plan looks dearer. Its documents come as an array, which a plan for any values
 * takes to hold ten where a call's holds one or two: every statement was planned on every call
 * (about 200 µs a call at 1M documents, 26 µs once planned).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter function ${VALUE_WRITE} set plan_cache_mode = force_generic_plan`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter function ${VALUE_WRITE} reset plan_cache_mode`.execute(db);
}
