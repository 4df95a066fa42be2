import { addManagementColumns } from "@service-api/adapters-kysely";
import { type Kysely, sql } from "kysely";
import { trigramOperatorClass } from "./trigram-operator-class.js";

/**
 * The management operations' schema (see `addManagementColumns`), with PostgreSQL's triggers: tags'
 * binding counts, datasets' available-document and word counts, bindings to a deleted dataset or
 * app deleted with it; and the document name search index (GIN over the dataset and the name's
 * trigrams: pg_trgm and btree_gin), its operator class qualified by the schema the extension lives in. Constant identifiers only, so plain SQL text is
 * safe.
 */
const STATEMENTS = [
  `create function tag_bindings_count() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then update tags set binding_count = binding_count + 1 where id = new.tag_id;
      else update tags set binding_count = binding_count - 1 where id = old.tag_id; end if;
      return null;
    end $$`,
  `create trigger tag_bindings_count after insert or delete on tag_bindings
     for each row execute function tag_bindings_count()`,
  `create function documents_dataset_counts() returns trigger language plpgsql as $$
    begin
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
      end if;
      return null;
    end $$`,
  `create trigger documents_dataset_counts after insert or delete on documents
     for each row execute function documents_dataset_counts()`,
  `create trigger documents_dataset_counts_update after update of display_status, word_count, dataset_id on documents
     for each row when (old.display_status is distinct from new.display_status
       or old.word_count is distinct from new.word_count or old.dataset_id is distinct from new.dataset_id)
     execute function documents_dataset_counts()`,
  `create function unbind_deleted_target() returns trigger language plpgsql as $$
    begin
      delete from tag_bindings where target_id = old.id;
      return null;
    end $$`,
  `create trigger datasets_unbind after delete on datasets for each row execute function unbind_deleted_target()`,
  `create trigger apps_unbind after delete on apps for each row execute function unbind_deleted_target()`,
  `create extension if not exists pg_trgm`,
  `create extension if not exists btree_gin`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await addManagementColumns(db, { integer: "bigint" });
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
  // One GIN index for "this dataset's documents whose name holds …" (btree_gin gives text's `=`).
  const trigrams = await trigramOperatorClass(db);
  await sql
    .raw(`create index document_names on documents using gin (dataset_id, name ${trigrams})`)
    .execute(db);
}

export async function down(): Promise<void> {
  throw new Error("Migration 0006 is not reversible: restore a backup instead.");
}
