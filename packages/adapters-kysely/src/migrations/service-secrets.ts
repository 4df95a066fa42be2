import { type Kysely, sql } from "kysely";

/**
 * Migration 0011 (SQLite) / 0019 (PostgreSQL), the part both stores share: the service's own
 * secrets by name (a signing key made at first start), so that every instance on one database
 * uses the same. Never exported: an export moves workspaces, not the service that served them.
 */
export async function addServiceSecrets(db: Kysely<unknown>, types: { text: string }): Promise<void> {
  await sql
    .raw(`create table service_secrets (
      name ${types.text} primary key,
      value ${types.text} not null
    )`)
    .execute(db);
}

export async function dropServiceSecrets(db: Kysely<unknown>): Promise<void> {
  await sql`drop table service_secrets`.execute(db);
}
