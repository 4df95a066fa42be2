import { type Kysely, sql } from "kysely";
import { slotOf } from "./0009-field-count-slots.js";

/**
 * Counts a transaction of many rows (an import) keeps once, at its end. Each counting trigger
 * updated its counter row for every row written; within one transaction every update of a row
 * leaves a version the next one walks past, so writing n documents to one dataset cost n² (100,000
 * documents: 506 a second at the start, 48 at 37,000). After `count_later()`, the triggers note
 * their changes in a temporary table instead (appended, never updated), and `count_now()` adds
 * them up and updates each counter row once, in id order (the ids' "C" order, as migration 0010
 * gave every id column, the order other writers lock them in). Until then the counters read as they
 * were. Other transactions count as before. Constant identifiers only, so plain SQL text is safe.
 */
/** Whether `count_later()` holds: never null (unset, the setting reads as null). */
const LATER = "coalesce(current_setting('service_api.count_later', true), '') = 'on'";
const note = (counter: string, id: string, columns: string, values: string) =>
  `insert into pg_temp.pending_counts (counter, id, ${columns}) values ('${counter}', ${id}, ${values});`;

const STATEMENTS = [
  `create or replace function count_later() returns void language plpgsql as $$
    begin
      create temporary table if not exists pending_counts (
        counter text not null, id text collate "C" not null, count bigint not null default 0,
        available bigint not null default 0, words bigint not null default 0) on commit drop;
      perform set_config('service_api.count_later', 'on', true);
    exception when insufficient_privilege then
      -- A role refused temporary tables (TEMP revoked from PUBLIC) counts with each row, as before.
      return;
    end $$`,
  `create or replace function count_now() returns void language plpgsql as $$
    declare
      pending record;
    begin
      if not (${LATER}) then
        return;
      end if;
      perform set_config('service_api.count_later', 'off', true);
      for pending in
        select id, sum(count) as count, sum(available) as available, sum(words) as words
          from pg_temp.pending_counts where counter = 'dataset' group by id
          having sum(count) <> 0 or sum(available) <> 0 or sum(words) <> 0 order by id
      loop
        update datasets set document_count = document_count + pending.count,
            available_document_count = available_document_count + pending.available,
            word_count = word_count + pending.words
          where id = pending.id;
      end loop;
      for pending in
        select id, sum(count) as count from pg_temp.pending_counts
          where counter = 'field' group by id having sum(count) <> 0 order by id
      loop
        update metadata_fields set document_count = document_count + pending.count where id = pending.id;
      end loop;
      for pending in
        select id, sum(count) as count from pg_temp.pending_counts
          where counter = 'tag' group by id having sum(count) <> 0 order by id
      loop
        update tags set binding_count = binding_count + pending.count where id = pending.id;
      end loop;
      truncate pg_temp.pending_counts;
    end $$`,
];

/** A counting trigger function: what it does with each row, and, when told to, what it notes instead. */
interface CountingTrigger {
  name: string;
  later: string;
  now: string;
}

const COUNTING_TRIGGERS: CountingTrigger[] = [
  {
    name: "documents_count",
    later: `
      if tg_op in ('DELETE', 'UPDATE') then ${note("dataset", "old.dataset_id", "count", "-1")} end if;
      if tg_op in ('INSERT', 'UPDATE') then ${note("dataset", "new.dataset_id", "count", "1")} end if;`,
    now: `
      if tg_op in ('DELETE', 'UPDATE') then
        update datasets set document_count = document_count - 1 where id = old.dataset_id;
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        update datasets set document_count = document_count + 1 where id = new.dataset_id;
      end if;`,
  },
  {
    name: "documents_dataset_counts",
    later: `
      if tg_op in ('DELETE', 'UPDATE') then
        ${note("dataset", "old.dataset_id", "available, words", "-(old.display_status is not distinct from 'available')::int, -old.word_count")}
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        ${note("dataset", "new.dataset_id", "available, words", "(new.display_status is not distinct from 'available')::int, new.word_count")}
      end if;`,
    now: `
      if tg_op in ('DELETE', 'UPDATE') then
        update datasets set
          available_document_count = available_document_count
            - (old.display_status is not distinct from 'available')::int,
          word_count = word_count - old.word_count
        where id = old.dataset_id;
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        update datasets set
          available_document_count = available_document_count
            + (new.display_status is not distinct from 'available')::int,
          word_count = word_count + new.word_count
        where id = new.dataset_id;
      end if;`,
  },
  {
    name: "document_metadata_values_count",
    later: `
      if tg_op in ('DELETE', 'UPDATE') then ${note("field", "old.field_id", "count", "-1")} end if;
      if tg_op in ('INSERT', 'UPDATE') then ${note("field", "new.field_id", "count", "1")} end if;`,
    now: `
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
      end if;`,
  },
  {
    name: "tag_bindings_count",
    later: `
      if tg_op = 'INSERT' then ${note("tag", "new.tag_id", "count", "1")}
      else ${note("tag", "old.tag_id", "count", "-1")} end if;`,
    now: `
      if tg_op = 'INSERT' then update tags set binding_count = binding_count + 1 where id = new.tag_id;
      else update tags set binding_count = binding_count - 1 where id = old.tag_id; end if;`,
  },
];

/** The function, noting its changes while `count_later()` holds (`withLater`), else as before 0012. */
const countingFunction = ({ name, later, now }: CountingTrigger, withLater: boolean) =>
  `create or replace function ${name}() returns trigger language plpgsql as $$
    begin${withLater ? `\n      if ${LATER} then${later}\n        return null;\n      end if;` : ""}${now}
      return null;
    end $$`;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
  for (const trigger of COUNTING_TRIGGERS) await sql.raw(countingFunction(trigger, true)).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const trigger of COUNTING_TRIGGERS) await sql.raw(countingFunction(trigger, false)).execute(db);
  await sql`drop function count_now()`.execute(db);
  await sql`drop function count_later()`.execute(db);
}
