import { type Kysely, sql } from "kysely";

/**
 * The columns naming another row's id that later migrations added without the "C" collation of
 * the ids they name (0006's `created_by`, `updated_by` and `archived_by`, 0009's `field_id`). In a
 * comparison of the two, "C" wins, so an index in the default collation cannot serve it: every
 * field listed and every value removed read all fields' counter rows. Only `field_id` is indexed
 * (its key is rebuilt); the other columns change in the catalog, their tables unwritten. The tables
 * are locked in the order writes take them (a dataset, its documents, then counter rows), so an
 * instance still serving during the upgrade waits for the migration instead of deadlocking with it.
 */
const ID_COLUMNS = [
  ["datasets", "created_by"],
  ["datasets", "updated_by"],
  ["documents", "archived_by"],
  ["apps", "created_by"],
  ["metadata_field_counts", "field_id"],
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [table, column] of ID_COLUMNS)
    await sql`alter table ${sql.table(table)} alter column ${sql.ref(column)} type text collate "C"`.execute(
      db,
    );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [table, column] of ID_COLUMNS)
    await sql`alter table ${sql.table(table)} alter column ${sql.ref(column)} type text collate "default"`.execute(
      db,
    );
}
