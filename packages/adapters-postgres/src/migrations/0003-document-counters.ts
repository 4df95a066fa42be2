import { DOCUMENT_COUNTERS } from "@service-api/adapters-kysely";
import { type Kysely, sql } from "kysely";

/**
 * Document counts kept in step with every write by triggers, so that listing metadata fields and
 * counting a dataset's documents read one row instead of counting rows: their cost no longer grows
 * with the data. AFTER INSERT row triggers do not fire for an upsert that updated, so each row counts once.
 */
/** The statements of one counter: constant identifiers only, so plain SQL text is safe. */
function counterStatements(owner: string, rows: string, column: string): string[] {
  const add = (side: string, delta: string) =>
    `update ${owner} set document_count = document_count ${delta} 1 where id = ${side}.${column};`;
  const fn = `${rows}_count`;
  return [
    `alter table ${owner} add column document_count bigint not null default 0`,
    `update ${owner} set document_count = (select count(*) from ${rows} where ${rows}.${column} = ${owner}.id)`,
    `create function ${fn}() returns trigger language plpgsql as $$
      begin
        if tg_op in ('DELETE', 'UPDATE') then ${add("old", "-")} end if;
        if tg_op in ('INSERT', 'UPDATE') then ${add("new", "+")} end if;
        return null;
      end $$`,
    `create trigger ${rows}_count_insert_delete after insert or delete on ${rows}
      for each row execute function ${fn}()`,
    `create trigger ${rows}_count_move after update of ${column} on ${rows}
      for each row when (old.${column} is distinct from new.${column}) execute function ${fn}()`,
  ];
}

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [owner, rows, column] of DOCUMENT_COUNTERS) {
    for (const statement of counterStatements(owner, rows, column)) await sql.raw(statement).execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [owner, rows] of DOCUMENT_COUNTERS) {
    await sql.raw(`drop function ${rows}_count() cascade`).execute(db);
    await sql.raw(`alter table ${owner} drop column document_count`).execute(db);
  }
}
