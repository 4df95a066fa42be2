import { type Kysely, sql } from "kysely";
import { FIELD_COUNT_SLOTS } from "./0009-field-count-slots.js";

/**
 * The first key of the datasets' turnstiles (transaction advisory locks, `datasetTurnstile`); the
 * second is a hash of the schema and the dataset's id. Two-key advisory locks are a space apart
 * from one-key ones, and this class keeps them apart from an embedding application's two-key ones.
 */
export const TURNSTILE_CLASS = 0x73617069; // "sapi"

/**
 * A value write that waits for its locks and then writes, in one call: `writeValues` takes two round
 * trips less (begin, the locks, the write, commit were four). PostgreSQL takes a statement's
 * snapshot before the locks it waits for, so a write that waited would not see the values the write
 * before it added; here each statement takes its own, after the locks. The turnstile (shared), the
 * dataset's row, its documents in id order; then the values removed (pairs cleared, and every value
 * of a document replacing all its values but the pairs kept), then the values set, in (field,
 * counter slot, document) order as the counting trigger wants. Only the dataset's documents and
 * fields are written. The lists are JSON arrays of string arrays. Constant identifiers only.
 */
export const WRITE_DOCUMENT_VALUES = `create or replace function write_document_values(
    of_dataset text, of_documents text[], values_set json, pairs_cleared json,
    documents_replaced text[], pairs_kept json)
  returns void language plpgsql as $$
  begin
    perform pg_advisory_xact_lock_shared(${TURNSTILE_CLASS}, hashtext(current_schema() || ' ' || of_dataset));
    perform from datasets where id = of_dataset for share;
    if not found then
      return;
    end if;
    perform from documents where dataset_id = of_dataset and id = any(of_documents) order by id for no key update;
    delete from document_metadata_values
      where document_id in (select id from documents where dataset_id = of_dataset and id = any(of_documents))
        and ((document_id, field_id) in (select pair ->> 0, pair ->> 1 from json_array_elements(pairs_cleared) as pair)
          or (document_id = any(documents_replaced)
            and (document_id, field_id) not in
              (select pair ->> 0, pair ->> 1 from json_array_elements(pairs_kept) as pair)));
    insert into document_metadata_values (document_id, field_id, value)
      select item ->> 0, item ->> 1, item ->> 2 from json_array_elements(values_set) as item
      where item ->> 0 in (select id from documents where dataset_id = of_dataset and id = any(of_documents))
        and exists (select from metadata_fields where id = item ->> 1 and dataset_id = of_dataset)
      order by item ->> 1, hashtext(item ->> 0) & ${FIELD_COUNT_SLOTS - 1}, item ->> 0
      on conflict (document_id, field_id) do update set value = excluded.value;
  end $$`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(WRITE_DOCUMENT_VALUES).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function write_document_values(text, text[], json, json, text[], json)`.execute(db);
}
