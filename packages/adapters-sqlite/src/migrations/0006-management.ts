import { addManagementColumns } from "@service-api/adapters-kysely";
import { type Kysely, sql } from "kysely";

/**
 * The management operations' schema (see `addManagementColumns`), with SQLite's triggers: tags'
 * binding counts, datasets' available-document and word counts, bindings to a deleted dataset or
 * app deleted with it, and the document name search index (FTS5, trigram tokenizer). FTS rows are
 * keyed by a stable integer of their own (`document_search_keys`), since VACUUM may renumber the
 * documents table's implicit rowids. Constant identifiers only, so plain SQL text is safe.
 */
const STATEMENTS = [
  `create trigger tag_bindings_count_insert after insert on tag_bindings begin
     update tags set binding_count = binding_count + 1 where id = new.tag_id; end`,
  `create trigger tag_bindings_count_delete after delete on tag_bindings begin
     update tags set binding_count = binding_count - 1 where id = old.tag_id; end`,
  `create trigger documents_dataset_counts_insert after insert on documents begin
     update datasets set available_document_count = available_document_count + (new.display_status is 'available'),
       word_count = word_count + new.word_count where id = new.dataset_id; end`,
  `create trigger documents_dataset_counts_delete after delete on documents begin
     update datasets set available_document_count = available_document_count - (old.display_status is 'available'),
       word_count = word_count - old.word_count where id = old.dataset_id; end`,
  `create trigger documents_dataset_counts_update after update of display_status, word_count, dataset_id on documents
     begin
       update datasets set available_document_count = available_document_count - (old.display_status is 'available'),
         word_count = word_count - old.word_count where id = old.dataset_id;
       update datasets set available_document_count = available_document_count + (new.display_status is 'available'),
         word_count = word_count + new.word_count where id = new.dataset_id;
     end`,
  `create trigger datasets_unbind after delete on datasets begin
     delete from tag_bindings where target_id = old.id; end`,
  `create trigger apps_unbind after delete on apps begin
     delete from tag_bindings where target_id = old.id; end`,
  `create table document_search_keys (seq integer primary key, document_id text not null unique)`,
  `create virtual table document_names using fts5(name, tokenize = 'trigram')`,
  `insert into document_search_keys (document_id) select id from documents`,
  `insert into document_names (rowid, name)
     select keys.seq, documents.name from document_search_keys keys join documents on documents.id = keys.document_id`,
  `create trigger document_names_insert after insert on documents begin
     insert into document_search_keys (document_id) values (new.id);
     insert into document_names (rowid, name)
       values ((select seq from document_search_keys where document_id = new.id), new.name);
   end`,
  `create trigger document_names_delete after delete on documents begin
     delete from document_names where rowid = (select seq from document_search_keys where document_id = old.id);
     delete from document_search_keys where document_id = old.id;
   end`,
  `create trigger document_names_update after update of name on documents when old.name is not new.name begin
     update document_names set name = new.name
       where rowid = (select seq from document_search_keys where document_id = new.id);
   end`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await addManagementColumns(db, { integer: "integer" });
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error("Migration 0006 is not reversible: restore a backup instead.");
}
