import { type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely, sql } from "kysely";

/** A column type as kysely's addColumn takes it (a name such as "bigint", or raw SQL). */
type DataTypeExpression = Parameters<CreateTableBuilder<string>["addColumn"]>[1];

/** What differs between the dialects in the first schema: column types, and one storage hint. */
export interface SchemaDialect {
  /** Text; on PostgreSQL in the "C" collation, so names sort in code point order as in SQLite. */
  text: DataTypeExpression;
  /** Unix seconds, counts and sizes. */
  integer: DataTypeExpression;
  flag: DataTypeExpression;
  float: DataTypeExpression;
  /** An ascending primary key the database assigns. */
  sequence(column: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
  /** SQLite keeps the metadata values table clustered by its key (WITHOUT ROWID). */
  withoutRowid: boolean;
}

type Column = (column: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;
const required: Column = (column) => column.notNull();
const key: Column = (column) => column.primaryKey();
const owner =
  (table: string): Column =>
  (column) =>
    column.notNull().references(`${table}.id`).onDelete("cascade");

/**
 * The whole schema of the five operations, for both SQL stores. Every lookup a repository makes is
 * served by an index. Released: change the schema with a new migration, never here.
 */
export async function createInitialSchema(db: Kysely<unknown>, types: SchemaDialect): Promise<void> {
  const { text, integer, flag, float } = types;
  const table = (name: string) => db.schema.createTable(name);
  const index = (name: string, on: string, columns: string[]) =>
    db.schema.createIndex(name).on(on).columns(columns).execute();

  await table("workspaces")
    .addColumn("id", text, key)
    .addColumn("name", text, required)
    .addColumn("status", text, required)
    .execute();
  await table("members")
    .addColumn("id", text, key)
    .addColumn("workspace_id", text, owner("workspaces"))
    .addColumn("name", text, required)
    .execute();
  await table("apps")
    .addColumn("id", text, key)
    .addColumn("workspace_id", text, owner("workspaces"))
    .addColumn("name", text, required)
    .addColumn("mode", text, required)
    .addColumn("enable_api", flag, required)
    .addColumn("status", text, required)
    .execute();
  await table("api_keys")
    .addColumn("id", text, key)
    .addColumn("kind", text, (column) => column.notNull().check(sql`kind in ('app', 'dataset')`))
    .addColumn("workspace_id", text, owner("workspaces"))
    .addColumn("app_id", text, (column) => column.references("apps.id").onDelete("cascade"))
    .addColumn("token_hash", text, (column) => column.notNull().unique())
    .addColumn("display_prefix", text, required)
    .addColumn("created_at", integer, required)
    .addColumn("last_used_at", integer)
    .addCheckConstraint("api_keys_app_kind", sql`(kind = 'app') = (app_id is not null)`)
    .execute();
  await table("datasets")
    .addColumn("id", text, key)
    .addColumn("workspace_id", text, owner("workspaces"))
    .addColumn("name", text, required)
    .addColumn("enable_api", flag, required)
    .addColumn("built_in_field_enabled", flag, required)
    .addColumn("process_rule_id", text)
    .addColumn("process_rule_mode", text)
    .addColumn("process_rule_rules", text)
    .addColumn("created_at", integer, required)
    .execute();
  await table("upload_files")
    .addColumn("id", text, key)
    .addColumn("workspace_id", text, owner("workspaces"))
    .addColumn("name", text, required)
    .addColumn("size", integer, required)
    .addColumn("extension", text, required)
    .addColumn("mime_type", text, required)
    .addColumn("created_by", text, required)
    .addColumn("created_at", integer, required)
    .execute();

  await table("documents")
    .addColumn("id", text, key)
    .addColumn("dataset_id", text, owner("datasets"))
    .addColumn("position", integer, required)
    .addColumn("data_source_type", text, required)
    // No foreign key: a document outlives its file row, and then shows `{}` as its data source.
    .addColumn("upload_file_id", text)
    .addColumn("process_rule_id", text, required)
    .addColumn("process_rule_mode", text, required)
    .addColumn("process_rule_rules", text, required)
    .addColumn("name", text, required)
    .addColumn("created_from", text, required)
    .addColumn("created_by", text, required)
    .addColumn("created_at", integer, required)
    .addColumn("updated_at", integer)
    .addColumn("tokens", integer, required)
    .addColumn("word_count", integer, required)
    .addColumn("indexing_status", text, required)
    .addColumn("is_paused", flag, required)
    .addColumn("error", text)
    .addColumn("enabled", flag, required)
    .addColumn("disabled_at", integer)
    .addColumn("disabled_by", text)
    .addColumn("archived", flag, required)
    .addColumn("doc_form", text, required)
    .addColumn("doc_language", text, required)
    .addColumn("doc_type", text)
    .addColumn("completed_at", integer)
    .addColumn("indexing_latency", float)
    .addColumn("summary_index_status", text)
    .addColumn("need_summary", flag, required)
    .execute();
  await index("documents_by_dataset", "documents", ["dataset_id"]);
  await table("chunks")
    .addColumn("id", text, key)
    .addColumn("document_id", text, owner("documents"))
    .addColumn("position", integer, required)
    .addColumn("content", text, required)
    .addColumn("char_count", integer, required)
    .addColumn("hit_count", integer, required)
    .execute();
  // Covers the per-document sums: no visit to the chunk rows (and their content) at all.
  await index("chunks_by_document", "chunks", ["document_id", "char_count", "hit_count"]);
  await table("metadata_fields")
    .addColumn("id", text, key)
    .addColumn("dataset_id", text, owner("datasets"))
    .addColumn("name", text, required)
    .addColumn("type", text, required)
    .addColumn("created_at", integer, required)
    .addUniqueConstraint("metadata_fields_name_per_dataset", ["dataset_id", "name"])
    .execute();
  await index("metadata_fields_by_dataset", "metadata_fields", ["dataset_id", "created_at", "id"]);
  const values = table("document_metadata_values")
    .addColumn("document_id", text, owner("documents"))
    .addColumn("field_id", text, owner("metadata_fields"))
    .addColumn("value", text, required)
    .addPrimaryKeyConstraint("document_metadata_values_pk", ["document_id", "field_id"]);
  await (types.withoutRowid ? values.modifyEnd(sql`without rowid`) : values).execute();
  await index("document_metadata_values_by_field", "document_metadata_values", ["field_id"]);

  await table("tags")
    .addColumn("id", text, key)
    .addColumn("workspace_id", text, owner("workspaces"))
    .addColumn("type", text, required)
    .addColumn("name", text, required)
    .execute();
  await table("tag_bindings")
    .addColumn("seq", integer, types.sequence)
    .addColumn("id", text, (column) => column.notNull().unique())
    .addColumn("workspace_id", text, owner("workspaces"))
    .addColumn("tag_id", text, owner("tags"))
    .addColumn("target_id", text, required)
    .addColumn("created_at", integer, required)
    .addUniqueConstraint("tag_bindings_pair", ["tag_id", "target_id"])
    .execute();
  await index("tag_bindings_by_target", "tag_bindings", ["target_id", "seq"]);

  await table("sites")
    .addColumn("app_id", text, (column) => column.primaryKey().references("apps.id").onDelete("cascade"))
    .addColumn("title", text, required)
    .addColumn("chat_color_theme", text, required)
    .addColumn("chat_color_theme_inverted", flag, required)
    .addColumn("icon_type", text, required)
    .addColumn("icon", text, required)
    .addColumn("icon_background", text, required)
    .addColumn("description", text, required)
    .addColumn("copyright", text, required)
    .addColumn("privacy_policy", text, required)
    .addColumn("input_placeholder", text)
    .addColumn("custom_disclaimer", text, required)
    .addColumn("default_language", text, required)
    .addColumn("show_workflow_steps", flag, required)
    .addColumn("use_icon_as_answer_icon", flag, required)
    .execute();
  await table("end_users")
    .addColumn("id", text, key)
    .addColumn("app_id", text, owner("apps"))
    .addColumn("session_id", text, required)
    .addUniqueConstraint("end_users_session_per_app", ["app_id", "session_id"])
    .execute();
  await table("conversations")
    .addColumn("id", text, key)
    .addColumn("app_id", text, owner("apps"))
    .addColumn("end_user_id", text, owner("end_users"))
    .addColumn("is_deleted", flag, required)
    .execute();
  await table("conversation_variables")
    .addColumn("conversation_id", text, owner("conversations"))
    .addColumn("id", text, required)
    .addColumn("name", text, required)
    .addColumn("value_type", text, required)
    .addColumn("value", text, required)
    .addColumn("description", text, required)
    .addColumn("created_at", integer, required)
    .addColumn("updated_at", integer, required)
    .addPrimaryKeyConstraint("conversation_variables_pk", ["conversation_id", "id"])
    .execute();
}
