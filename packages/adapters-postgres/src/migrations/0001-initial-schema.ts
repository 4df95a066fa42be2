import { createInitialSchema } from "@service-api/adapters-kysely";
import { type Kysely, sql } from "kysely";

/**
 * The shared first schema in PostgreSQL's types: bigint seconds, boolean flags, and text in the
 * "C" collation, so names sort in code point order as they do in SQLite, whatever the locale.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createInitialSchema(db, {
    text: sql`text collate "C"`,
    integer: "bigint",
    flag: "boolean",
    float: "double precision",
    sequence: (column) => column.primaryKey().generatedAlwaysAsIdentity(),
    withoutRowid: false,
  });
}

export async function down(): Promise<void> {
  throw new Error("The initial schema is not reversible: restore a backup instead.");
}
