import { ACCESS_SOURCES } from "@service-api/adapters-kysely";
import { type Kysely, sql } from "kysely";

/**
 * One number every process reads to know whether what it knows of API keys still holds: triggers
 * raise it once per statement that changes, deletes or truncates keys, apps or workspaces. Constant
 * identifiers only, so plain SQL text is safe.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table access_revision (id smallint primary key check (id = 1), value bigint not null)`.execute(
    db,
  );
  await sql`insert into access_revision (id, value) values (1, 0)`.execute(db);
  await sql`create function access_revision_bump() returns trigger language plpgsql as $$
    begin
      update access_revision set value = value + 1 where id = 1;
      return null;
    end $$`.execute(db);
  for (const [table, columns] of ACCESS_SOURCES) {
    const update = columns ? `update of ${columns.join(", ")}` : "update";
    await sql
      .raw(`create trigger ${table}_access after ${update} or delete or truncate on ${table}
        for each statement execute function access_revision_bump()`)
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function access_revision_bump() cascade`.execute(db);
  await sql`drop table access_revision`.execute(db);
}
