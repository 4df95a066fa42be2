import { type Kysely, sql } from "kysely";

/**
 * Migration 0006, the part both SQL stores share: the columns the management operations read and
 * write, backfilled; one owner per workspace; tag names unique per (workspace, type), earlier
 * duplicates renamed "name (2)", "name (3)"…; and the indexes of the new lists. Each adapter adds
 * its triggers (counters, unbinding, the name search index) after this.
 */
export async function addManagementColumns(db: Kysely<unknown>, types: { integer: string }): Promise<void> {
  const { integer } = types;
  const add = (table: string, column: string, type: string, rest = "") =>
    sql.raw(`alter table ${table} add column ${column} ${type} ${rest}`).execute(db);

  await add("members", "role", "text", "not null default 'normal'");
  await sql`update members set role = 'owner' where id in (
      select (select m.id from members m where m.workspace_id = w.id order by m.name, m.id limit 1)
      from workspaces w)`.execute(db);
  await sql`create unique index members_one_owner on members (workspace_id) where role = 'owner'`.execute(db);

  await add("tags", "created_at", integer, "not null default 0");
  await add("tags", "binding_count", integer, "not null default 0");
  await sql`update tags set binding_count = (select count(*) from tag_bindings where tag_bindings.tag_id = tags.id)`.execute(
    db,
  );
  await renameDuplicateTags(db);
  await sql`create unique index tags_name_per_kind on tags (workspace_id, type, name)`.execute(db);
  await sql`create index tags_by_kind_newest on tags (workspace_id, type, created_at desc, id)`.execute(db);

  await add("datasets", "description", "text", "not null default ''");
  await add("datasets", "created_by", "text");
  await add("datasets", "updated_by", "text");
  await add("datasets", "updated_at", integer, "not null default 0");
  await add("datasets", "available_document_count", integer, "not null default 0");
  await add("datasets", "word_count", integer, "not null default 0");
  await sql`update datasets set updated_at = created_at, created_by = (
      select id from members where members.workspace_id = datasets.workspace_id and role = 'owner')`.execute(
    db,
  );
  await sql`create index datasets_by_workspace_newest on datasets (workspace_id, created_at desc, id)`.execute(
    db,
  );

  await add("documents", "archived_at", integer);
  await add("documents", "archived_by", "text");
  await add("documents", "display_status", "text");
  // The domain's displayStatus rule, once, for the rows already stored; every write sets it since.
  await sql`update documents set display_status = case
      when indexing_status = 'waiting' then 'queuing'
      when (is_paused = true or indexing_status = 'paused') and indexing_status not in ('completed', 'error') then 'paused'
      when indexing_status in ('parsing', 'cleaning', 'splitting', 'indexing') then 'indexing'
      when indexing_status = 'error' then 'error'
      when indexing_status = 'completed' and archived = true then 'archived'
      when indexing_status = 'completed' and enabled = true then 'available'
      when indexing_status = 'completed' then 'disabled'
    end`.execute(db);
  await sql`update datasets set
      available_document_count = (select count(*) from documents
        where documents.dataset_id = datasets.id and display_status = 'available'),
      word_count = coalesce((select sum(word_count) from documents where documents.dataset_id = datasets.id), 0)`.execute(
    db,
  );
  await sql`create index documents_by_dataset_newest on documents (dataset_id, created_at desc, position desc, id)`.execute(
    db,
  );
  await sql`create index documents_by_dataset_status on documents
      (dataset_id, display_status, created_at desc, position desc, id)`.execute(db);
  await sql`create index documents_by_upload_file on documents (upload_file_id)`.execute(db);
  await sql`create index documents_by_dataset_position on documents (dataset_id, position, id)`.execute(db);

  await add("apps", "description", "text", "not null default ''");
  await add("apps", "created_by", "text");
  await sql`update apps set created_by = (
      select id from members where members.workspace_id = apps.workspace_id and role = 'owner')`.execute(db);

  await sql`create index conversation_variables_by_creation on conversation_variables
      (conversation_id, created_at, id)`.execute(db);
}

/** Earlier imports let two tags of a kind share a name; the later ones (by id) become "name (2)"… */
async function renameDuplicateTags(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ id: string; name: string; rank: number }>`
    select id, name, rank from (
      select id, name, row_number() over (partition by workspace_id, type, name order by id) as rank from tags
    ) ranked where rank > 1`.execute(db);
  for (const { id, name, rank } of rows) {
    await sql`update tags set name = ${`${name} (${Number(rank)})`} where id = ${id}`.execute(db);
  }
}
