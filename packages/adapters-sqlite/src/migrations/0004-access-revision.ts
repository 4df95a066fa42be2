import { ACCESS_SOURCES } from "@service-api/adapters-kysely";
import { type Kysely, sql } from "kysely";

/**
 * One number every process reads to know whether what it knows of API keys still holds: triggers
 * raise it whenever a key, an app or a workspace is changed or deleted. Constant identifiers only,
 * so plain SQL text is safe.
 */
const BUMP = "update access_revision set value = value + 1 where id = 1;";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table access_revision (id integer primary key check (id = 1), value integer not null)`.execute(
    db,
  );
  await sql`insert into access_revision (id, value) values (1, 0)`.execute(db);
  for (const [table, columns] of ACCESS_SOURCES) {
    const update = columns ? `update of ${columns.join(", ")}` : "update";
    await sql
      .raw(`create trigger ${table}_access_update after ${update} on ${table} begin ${BUMP} end`)
      .execute(db);
    await sql
      .raw(`create trigger ${table}_access_delete after delete on ${table} begin ${BUMP} end`)
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [table] of ACCESS_SOURCES) {
    await sql.raw(`drop trigger ${table}_access_update`).execute(db);
    await sql.raw(`drop trigger ${table}_access_delete`).execute(db);
  }
  await sql`drop table access_revision`.execute(db);
}
