import { DOCUMENT_COUNTERS } from "@service-api/adapters-kysely";
import { type Kysely, sql } from "kysely";

/**
 * Document counts kept in step with every write by triggers, so that listing metadata fields and
 * counting a dataset's documents read one row instead of counting rows: their cost no longer grows
 * with the data. An upsert that finds its row fires UPDATE triggers, not INSERT ones, so it counts once.
 */
/** The statements of one counter: constant identifiers only, so plain SQL text is safe. */
function counterStatements(owner: string, rows: string, column: string): string[] {
  const add = (side: string, delta: string) =>
    `update ${owner} set document_count = document_count ${delta} 1 where id = ${side}.${column};`;
  return [
    `alter table ${owner} add column document_count integer not null default 0`,
    `update ${owner} set document_count = (select count(*) from ${rows} where ${rows}.${column} = ${owner}.id)`,
    `create trigger ${rows}_count_insert after insert on ${rows} begin ${add("new", "+")} end`,
    `create trigger ${rows}_count_delete after delete on ${rows} begin ${add("old", "-")} end`,
    `create trigger ${rows}_count_move after update of ${column} on ${rows}
      when old.${column} is not new.${column} begin ${add("old", "-")} ${add("new", "+")} end`,
  ];
}

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [owner, rows, column] of DOCUMENT_COUNTERS) {
    for (const statement of counterStatements(owner, rows, column)) await sql.raw(statement).execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [owner, rows] of DOCUMENT_COUNTERS) {
    for (const event of ["insert", "delete", "move"])
      await sql.raw(`drop trigger ${rows}_count_${event}`).execute(db);
    await sql.raw(`alter table ${owner} drop column document_count`).execute(db);
  }
}
