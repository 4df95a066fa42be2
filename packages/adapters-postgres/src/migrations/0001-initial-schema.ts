import { type ColumnDefinitionBuilder, type Kysely, sql } from "kysely";

/**
 * The schema of adapters-sqlite's first migration, in PostgreSQL's types: bigint for seconds and
 * counts, boolean for flags, and text in the "C" collation, so names sort in code point order as
 * they do in SQLite and in memory, whatever the database's locale.
 */
const text = sql`text collate "C"`;
type Column = (column: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;
const required: Column = (column) => column.notNull();
const owner =
  (table: string): Column =>
  (column) =>
    column.notNull().references(`${table}.id`).onDelete("cascade");

export async function up(db: Kysely<unknown>): Promise<void> {
  const table = (name: string) => db.schema.createTable(name);

  await table("workspaces")
    .addColumn("id", text, (column) => column.primaryKey())
    .addColumn("name", text, required)
    .addColumn("status", text, required)
    .execute();
  await table("members")
    .addColumn("id", text, (column) => column.primaryKey())
    .addColumn("workspace_id", text, owner("workspaces"))
    .addColumn("name", text, required)
    .execute();
  await table("apps")
    .addColumn("id", text, (column) => column.primaryKey())
    .addColumn("workspace_id", text, owner("workspaces"))
    .addColumn("name", text, required)
    .addColumn("mode", text, required)
    .addColumn("enable_api", "boolean", required)
    .addColumn("status", text, required)
    .execute();
  await table("api_keys")
    .addColumn("id", text, (column) => column.primaryKey())
    .addColumn("kind", text, (column) => column.notNull().check(sql`kind in ('app', 'dataset')`))
    .addColumn("workspace_id", text, owner("workspaces"))
    .addColumn("app_id", text, (column) => column.references("apps.id").onDelete("cascade"))
    .addColumn("token_hash", text, (column) => column.notNull().unique())
    .addColumn("display_prefix", text, required)
    .addColumn("created_at", "bigint", required)
    .addColumn("last_used_at", "bigint")
    .addCheckConstraint("api_keys_app_kind", sql`(kind = 'app') = (app_id is not null)`)
    .execute();
  await table("datasets")
    .addColumn("id", text, (column) => column.primaryKey())
    .addColumn("workspace_id", text, owner("workspaces"))
    .addColumn("name", text, required)
    .addColumn("enable_api", "boolean", required)
    .addColumn("built_in_field_enabled", "boolean", required)
    .addColumn("process_rule_id", text)
    .addColumn("process_rule_mode", text)
    .addColumn("process_rule_rules", text)
    .addColumn("created_at", "bigint", required)
    .execute();
  await table("upload_files")
    .addColumn("id", text, (column) => column.primaryKey())
    .addColumn("workspace_id", text, owner("workspaces"))
    .addColumn("name", text, required)
    .addColumn("size", "bigint", required)
    .addColumn("extension", text, required)
    .addColumn("mime_type", text, required)
    .addColumn("created_by", text, required)
    .addColumn("created_at", "bigint", required)
    .execute();
  await createDocumentTables(db);
  await createTagAndConversationTables(db);
}

async function createDocumentTables(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("documents")
    .addColumn("id", text, (column) => column.primaryKey())
    .addColumn("dataset_id", text, owner("datasets"))
    .addColumn("position", "bigint", required)
    .addColumn("data_source_type", text, required)
    .addColumn("upload_file_id", text)
    .addColumn("process_rule_id", text, required)
    .addColumn("process_rule_mode", text, required)
    .addColumn("process_rule_rules", text, required)
    .addColumn("name", text, required)
    .addColumn("created_from", text, required)
    .addColumn("created_by", text, required)
    .addColumn("created_at", "bigint", required)
    .addColumn("updated_at", "bigint")
    .addColumn("tokens", "bigint", required)
    .addColumn("word_count", "bigint", required)
    .addColumn("indexing_status", text, required)
    .addColumn("is_paused", "boolean", required)
    .addColumn("error", text)
    .addColumn("enabled", "boolean", required)
    .addColumn("disabled_at", "bigint")
    .addColumn("disabled_by", text)
    .addColumn("archived", "boolean", required)
    .addColumn("doc_form", text, required)
    .addColumn("doc_language", text, required)
    .addColumn("doc_type", text)
    .addColumn("completed_at", "bigint")
    .addColumn("indexing_latency", "double precision")
    .addColumn("summary_index_status", text)
    .addColumn("need_summary", "boolean", required)
    .execute();
  await db.schema.createIndex("documents_by_dataset").on("documents").column("dataset_id").execute();
  await db.schema
    .createTable("chunks")
    .addColumn("id", text, (column) => column.primaryKey())
    .addColumn("document_id", text, owner("documents"))
    .addColumn("position", "bigint", required)
    .addColumn("content", text, required)
    .addColumn("char_count", "bigint", required)
    .addColumn("hit_count", "bigint", required)
    .execute();
  await db.schema
    .createIndex("chunks_by_document")
    .on("chunks")
    .columns(["document_id", "char_count", "hit_count"])
    .execute();
  await db.schema
    .createTable("metadata_fields")
    .addColumn("id", text, (column) => column.primaryKey())
    .addColumn("dataset_id", text, owner("datasets"))
    .addColumn("name", text, required)
    .addColumn("type", text, required)
    .addColumn("created_at", "bigint", required)
    .addUniqueConstraint("metadata_fields_name_per_dataset", ["dataset_id", "name"])
    .execute();
  await db.schema
    .createIndex("metadata_fields_by_dataset")
    .on("metadata_fields")
    .columns(["dataset_id", "created_at", "id"])
    .execute();
  await db.schema
    .createTable("document_metadata_values")
    .addColumn("document_id", text, owner("documents"))
    .addColumn("field_id", text, owner("metadata_fields"))
    .addColumn("value", text, required)
    .addPrimaryKeyConstraint("document_metadata_values_pk", ["document_id", "field_id"])
    .execute();
  await db.schema
    .createIndex("document_metadata_values_by_field")
    .on("document_metadata_values")
    .column("field_id")
    .execute();
}

async function createTagAndConversationTables(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("tags")
    .addColumn("id", text, (column) => column.primaryKey())
    .addColumn("workspace_id", text, owner("workspaces"))
    .addColumn("type", text, required)
    .addColumn("name", text, required)
    .execute();
  await db.schema
    .createTable("tag_bindings")
    .addColumn("seq", "bigint", (column) => column.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("id", text, (column) => column.notNull().unique())
    .addColumn("workspace_id", text, owner("workspaces"))
    .addColumn("tag_id", text, owner("tags"))
    .addColumn("target_id", text, required)
    .addColumn("created_at", "bigint", required)
    .addUniqueConstraint("tag_bindings_pair", ["tag_id", "target_id"])
    .execute();
  await db.schema
    .createIndex("tag_bindings_by_target")
    .on("tag_bindings")
    .columns(["target_id", "seq"])
    .execute();
  await db.schema
    .createTable("sites")
    .addColumn("app_id", text, (column) => column.primaryKey().references("apps.id").onDelete("cascade"))
    .addColumn("title", text, required)
    .addColumn("chat_color_theme", text, required)
    .addColumn("chat_color_theme_inverted", "boolean", required)
    .addColumn("icon_type", text, required)
    .addColumn("icon", text, required)
    .addColumn("icon_background", text, required)
    .addColumn("description", text, required)
    .addColumn("copyright", text, required)
    .addColumn("privacy_policy", text, required)
    .addColumn("input_placeholder", text)
    .addColumn("custom_disclaimer", text, required)
    .addColumn("default_language", text, required)
    .addColumn("show_workflow_steps", "boolean", required)
    .addColumn("use_icon_as_answer_icon", "boolean", required)
    .execute();
  await db.schema
    .createTable("end_users")
    .addColumn("id", text, (column) => column.primaryKey())
    .addColumn("app_id", text, owner("apps"))
    .addColumn("session_id", text, required)
    .addUniqueConstraint("end_users_session_per_app", ["app_id", "session_id"])
    .execute();
  await db.schema
    .createTable("conversations")
    .addColumn("id", text, (column) => column.primaryKey())
    .addColumn("app_id", text, owner("apps"))
    .addColumn("end_user_id", text, owner("end_users"))
    .addColumn("is_deleted", "boolean", required)
    .execute();
  await db.schema
    .createTable("conversation_variables")
    .addColumn("conversation_id", text, owner("conversations"))
    .addColumn("id", text, required)
    .addColumn("name", text, required)
    .addColumn("value_type", text, required)
    .addColumn("value", text, required)
    .addColumn("description", text, required)
    .addColumn("created_at", "bigint", required)
    .addColumn("updated_at", "bigint", required)
    .addPrimaryKeyConstraint("conversation_variables_pk", ["conversation_id", "id"])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error("The initial schema is not reversible: restore a backup instead.");
}
