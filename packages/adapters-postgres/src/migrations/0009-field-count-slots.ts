import { type Kysely, sql } from "kysely";

/** How many rows a field's count is spread over: a power of two. */
export const FIELD_COUNT_SLOTS = 16;
export const slotOf = (documentId: string) => `hashtext(${documentId}) & ${FIELD_COUNT_SLOTS - 1}`;

/**
 * A field's count of documents holding a value, spread over `FIELD_COUNT_SLOTS` rows: its
 * `metadata_fields.document_count` plus its rows here, where the existing counts move. A value
 * write used to update its field's row, so every write to a field waited for the one before to
 * commit; now writes to different documents usually update different rows and commit together. A
 * document's slot is a hash of its id. A removed value takes one from its slot's row, or from the
 * field's own count while the slot has no row (never inserting one: the field may be going too).
 * Constant identifiers only, so plain SQL text is safe.
 */
const STATEMENTS = [
  `create table metadata_field_counts (
     field_id text not null references metadata_fields (id) on delete cascade,
     slot smallint not null,
     count bigint not null,
     primary key (field_id, slot))`,
  `create or replace function document_metadata_values_count() returns trigger language plpgsql as $$
    begin
      if tg_op in ('DELETE', 'UPDATE') then
        update metadata_field_counts set count = count - 1
          where field_id = old.field_id and slot = ${slotOf("old.document_id")};
        if not found then
          update metadata_fields set document_count = document_count - 1 where id = old.field_id;
        end if;
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        insert into metadata_field_counts (field_id, slot, count)
          values (new.field_id, ${slotOf("new.document_id")}, 1)
          on conflict (field_id, slot) do update set count = metadata_field_counts.count + 1;
      end if;
      return null;
    end $$`,
  `insert into metadata_field_counts (field_id, slot, count)
     select field_id, ${slotOf("document_id")}, count(*) from document_metadata_values group by 1, 2`,
  "update metadata_fields set document_count = 0 where document_count <> 0",
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error("Migration 0009 is not reversible: restore a backup instead.");
}
