import { type Kysely, sql } from "kysely";

/**
 * Migration 0007, the same in every dialect: fields created in the same second keep the order they
 * were created in. `position` counts the dataset's fields as they come (the creating transaction
 * holds the dataset's lock, so two never take one number); fields already stored are numbered by
 * (created_at, id), the order they were listed in until now. Lists read (created_at, position, id).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table metadata_fields add column position integer not null default 0`.execute(db);
  await sql`update metadata_fields set position = (
      select count(*) from metadata_fields earlier
      where earlier.dataset_id = metadata_fields.dataset_id
        and (earlier.created_at < metadata_fields.created_at
          or (earlier.created_at = metadata_fields.created_at and earlier.id <= metadata_fields.id)))`.execute(
    db,
  );
  await sql`drop index metadata_fields_by_dataset`.execute(db);
  await sql`create index metadata_fields_by_dataset on metadata_fields (dataset_id, created_at, position, id)`.execute(
    db,
  );
}

export async function down(): Promise<void> {
  throw new Error("Migration 0007 is not reversible: restore a backup instead.");
}
