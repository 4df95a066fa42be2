import { type Kysely, sql } from "kysely";
import { slotOf } from "./0009-field-count-slots.js";
import { TURNSTILE_CLASS, WRITE_DOCUMENT_VALUES } from "./0011-value-writes.js";
import { up as keepPlans } from "./0014-value-write-plans.js";

/** The dataset's documents among the call's. */
const DOCUMENTS = "(select id from documents where dataset_id = of_dataset and id = any(of_documents))";

/** The values the call removes: pairs cleared, and a replacing document's values but the pairs kept. */
const REMOVED = `document_id in ${DOCUMENTS}
  and ((document_id, field_id) in (select pair ->> 0, pair ->> 1 from json_array_elements(pairs_cleared) as pair)
    or (document_id = any(documents_replaced)
      and (document_id, field_id) not in
        (select pair ->> 0, pair ->> 1 from json_array_elements(pairs_kept) as pair)))`;

/** The values the call sets: of the dataset's documents and fields. */
const SET = `from json_array_elements(values_set) as item
  where item ->> 0 in ${DOCUMENTS}
    and exists (select from metadata_fields where id = item ->> 1 and dataset_id = of_dataset)`;

/**
 * The value write (migration 0011) takes every counter row it will change before it changes a
 * value, in (field, slot) order, the order a write that only sets takes them in. Its removals took
 * theirs in the order they found the values, and its new values theirs after: two calls, each
 * removing one field's value and setting another's on documents of one slot, took the same two rows
 * in opposite orders, and PostgreSQL rolled one back as a deadlock (the store tried it again, up to
 * three times, then answered 503). The rows are those of the values removed and of the values
 * new (a value set again changes no count, and takes no row), made where missing (a count of 0)
 * and locked without being written (`do update … where false`). A removal then finds its slot's row,
 * so the call never takes the field's own row either, which writes to other slots could be waiting
 * behind. Its documents are locked first, so the values it removes cannot change in between.
 */
const WRITE_DOCUMENT_VALUES_IN_ORDER = `create or replace function write_document_values(
    of_dataset text, of_documents text[], values_set json, pairs_cleared json,
    documents_replaced text[], pairs_kept json)
  returns void language plpgsql set plan_cache_mode = force_generic_plan as $$
  begin
    perform pg_advisory_xact_lock_shared(${TURNSTILE_CLASS}, hashtext(current_schema() || ' ' || of_dataset));
    perform from datasets where id = of_dataset for share;
    if not found then
      return;
    end if;
    perform from documents where dataset_id = of_dataset and id = any(of_documents) order by id for no key update;
    -- Where nothing is removed, the values set take their rows in order as they go.
    if json_array_length(pairs_cleared) > 0 or cardinality(documents_replaced) > 0 then
      insert into metadata_field_counts (field_id, slot, count)
        select field_id, slot, 0 from (
          select item ->> 1 as field_id, ${slotOf("item ->> 0")} as slot ${SET}
            and not exists (select from document_metadata_values
              where document_id = item ->> 0 and field_id = item ->> 1)
          union
          select field_id collate "default", ${slotOf("document_id")} from document_metadata_values where ${REMOVED}
        ) as touched
        order by field_id, slot
        on conflict (field_id, slot) do update set count = metadata_field_counts.count where false;
    end if;
    delete from document_metadata_values where ${REMOVED};
    insert into document_metadata_values (document_id, field_id, value)
      select item ->> 0, item ->> 1, item ->> 2 ${SET}
      order by item ->> 1, ${slotOf("item ->> 0")}, item ->> 0
      on conflict (document_id, field_id) do update set value = excluded.value;
  end $$`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(WRITE_DOCUMENT_VALUES_IN_ORDER).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(WRITE_DOCUMENT_VALUES).execute(db);
  await keepPlans(db);
}
