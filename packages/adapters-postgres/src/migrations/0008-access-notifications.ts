import { type Kysely, sql } from "kysely";

/** The channel every instance listens on to hear of access changes. */
export const ACCESS_CHANNEL = "service_api_access";

/**
 * Each raise of the access revision is also announced: `<schema> <revision>` on `ACCESS_CHANNEL`,
 * delivered when the change commits, so an instance can drop what keys granted without polling.
 * The schema names which deployment's revision it is, when several share a database.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create or replace function access_revision_bump() returns trigger language plpgsql as $$
    declare raised bigint;
    begin
      update access_revision set value = value + 1 where id = 1 returning value into raised;
      perform pg_notify(${sql.lit(ACCESS_CHANNEL)}, tg_table_schema || ' ' || raised);
      return null;
    end $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create or replace function access_revision_bump() returns trigger language plpgsql as $$
    begin
      update access_revision set value = value + 1 where id = 1;
      return null;
    end $$`.execute(db);
}
