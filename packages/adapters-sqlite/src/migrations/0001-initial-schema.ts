import { createInitialSchema } from "@service-api/adapters-kysely";
import type { Kysely } from "kysely";

/** The shared first schema in SQLite's types: integers for seconds and flags, real for floats. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createInitialSchema(db, {
    text: "text",
    integer: "integer",
    flag: "integer",
    float: "real",
    sequence: (column) => column.primaryKey().autoIncrement(),
    withoutRowid: true,
  });
}

export async function down(): Promise<void> {
  throw new Error("The initial schema is not reversible: restore a backup instead.");
}
