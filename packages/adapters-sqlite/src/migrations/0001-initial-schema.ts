import { type Kysely, sql } from "kysely";

/** The whole schema of the five operations. Every lookup a repository makes is served by an index. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("workspaces")
    .addColumn("id", "text", (column) => column.primaryKey())
    .addColumn("name", "text", (column) => column.notNull())
    .addColumn("status", "text", (column) => column.notNull())
    .execute();

  await db.schema
    .createTable("members")
    .addColumn("id", "text", (column) => column.primaryKey())
    .addColumn("workspace_id", "text", (column) =>
      column.notNull().references("workspaces.id").onDelete("cascade"),
    )
    .addColumn("name", "text", (column) => column.notNull())
    .execute();

  await db.schema
    .createTable("apps")
    .addColumn("id", "text", (column) => column.primaryKey())
    .addColumn("workspace_id", "text", (column) =>
      column.notNull().references("workspaces.id").onDelete("cascade"),
    )
    .addColumn("name", "text", (column) => column.notNull())
    .addColumn("mode", "text", (column) => column.notNull())
    .addColumn("enable_api", "integer", (column) => column.notNull())
    .addColumn("status", "text", (column) => column.notNull())
    .execute();

  await db.schema
    .createTable("api_keys")
    .addColumn("id", "text", (column) => column.primaryKey())
    .addColumn("kind", "text", (column) => column.notNull().check(sql`kind in ('app', 'dataset')`))
    .addColumn("workspace_id", "text", (column) =>
      column.notNull().references("workspaces.id").onDelete("cascade"),
    )
    .addColumn("app_id", "text", (column) => column.references("apps.id").onDelete("cascade"))
    .addColumn("token_hash", "text", (column) => column.notNull().unique())
    .addColumn("display_prefix", "text", (column) => column.notNull())
    .addColumn("created_at", "integer", (column) => column.notNull())
    .addColumn("last_used_at", "integer")
    .addCheckConstraint("api_keys_app_kind", sql`(kind = 'app') = (app_id is not null)`)
    .execute();

  await db.schema
    .createTable("datasets")
    .addColumn("id", "text", (column) => column.primaryKey())
    .addColumn("workspace_id", "text", (column) =>
      column.notNull().references("workspaces.id").onDelete("cascade"),
    )
    .addColumn("name", "text", (column) => column.notNull())
    .addColumn("enable_api", "integer", (column) => column.notNull())
    .addColumn("built_in_field_enabled", "integer", (column) => column.notNull())
    .addColumn("process_rule_id", "text")
    .addColumn("process_rule_mode", "text")
    .addColumn("process_rule_rules", "text")
    .addColumn("created_at", "integer", (column) => column.notNull())
    .execute();

  await db.schema
    .createTable("upload_files")
    .addColumn("id", "text", (column) => column.primaryKey())
    .addColumn("workspace_id", "text", (column) =>
      column.notNull().references("workspaces.id").onDelete("cascade"),
    )
    .addColumn("name", "text", (column) => column.notNull())
    .addColumn("size", "integer", (column) => column.notNull())
    .addColumn("extension", "text", (column) => column.notNull())
    .addColumn("mime_type", "text", (column) => column.notNull())
    .addColumn("created_by", "text", (column) => column.notNull())
    .addColumn("created_at", "integer", (column) => column.notNull())
    .execute();

  await createDocumentTables(db);
  await createTagTables(db);
  await createConversationTables(db);
}

async function createDocumentTables(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("documents")
    .addColumn("id", "text", (column) => column.primaryKey())
    .addColumn("dataset_id", "text", (column) =>
      column.notNull().references("datasets.id").onDelete("cascade"),
    )
    .addColumn("position", "integer", (column) => column.notNull())
    .addColumn("data_source_type", "text", (column) => column.notNull())
    // No foreign key: a document outlives its file row, and then shows `{}` as its data source.
    .addColumn("upload_file_id", "text")
    .addColumn("process_rule_id", "text", (column) => column.notNull())
    .addColumn("process_rule_mode", "text", (column) => column.notNull())
    .addColumn("process_rule_rules", "text", (column) => column.notNull())
    .addColumn("name", "text", (column) => column.notNull())
    .addColumn("created_from", "text", (column) => column.notNull())
    .addColumn("created_by", "text", (column) => column.notNull())
    .addColumn("created_at", "integer", (column) => column.notNull())
    .addColumn("updated_at", "integer")
    .addColumn("tokens", "integer", (column) => column.notNull())
    .addColumn("word_count", "integer", (column) => column.notNull())
    .addColumn("indexing_status", "text", (column) => column.notNull())
    .addColumn("is_paused", "integer", (column) => column.notNull())
    .addColumn("error", "text")
    .addColumn("enabled", "integer", (column) => column.notNull())
    .addColumn("disabled_at", "integer")
    .addColumn("disabled_by", "text")
    .addColumn("archived", "integer", (column) => column.notNull())
    .addColumn("doc_form", "text", (column) => column.notNull())
    .addColumn("doc_language", "text", (column) => column.notNull())
    .addColumn("doc_type", "text")
    .addColumn("completed_at", "integer")
    .addColumn("indexing_latency", "real")
    .addColumn("summary_index_status", "text")
    .addColumn("need_summary", "integer", (column) => column.notNull())
    .execute();
  await db.schema.createIndex("documents_by_dataset").on("documents").column("dataset_id").execute();

  await db.schema
    .createTable("chunks")
    .addColumn("id", "text", (column) => column.primaryKey())
    .addColumn("document_id", "text", (column) =>
      column.notNull().references("documents.id").onDelete("cascade"),
    )
    .addColumn("position", "integer", (column) => column.notNull())
    .addColumn("content", "text", (column) => column.notNull())
    .addColumn("char_count", "integer", (column) => column.notNull())
    .addColumn("hit_count", "integer", (column) => column.notNull())
    .execute();
  // Covers the per-document sums: no visit to the chunk rows (and their content) at all.
  await db.schema
    .createIndex("chunks_by_document")
    .on("chunks")
    .columns(["document_id", "char_count", "hit_count"])
    .execute();

  await db.schema
    .createTable("metadata_fields")
    .addColumn("id", "text", (column) => column.primaryKey())
    .addColumn("dataset_id", "text", (column) =>
      column.notNull().references("datasets.id").onDelete("cascade"),
    )
    .addColumn("name", "text", (column) => column.notNull())
    .addColumn("type", "text", (column) => column.notNull())
    .addColumn("created_at", "integer", (column) => column.notNull())
    .addUniqueConstraint("metadata_fields_name_per_dataset", ["dataset_id", "name"])
    .execute();
  await db.schema
    .createIndex("metadata_fields_by_dataset")
    .on("metadata_fields")
    .columns(["dataset_id", "created_at", "id"])
    .execute();

  await db.schema
    .createTable("document_metadata_values")
    .addColumn("document_id", "text", (column) =>
      column.notNull().references("documents.id").onDelete("cascade"),
    )
    .addColumn("field_id", "text", (column) =>
      column.notNull().references("metadata_fields.id").onDelete("cascade"),
    )
    .addColumn("value", "text", (column) => column.notNull())
    .addPrimaryKeyConstraint("document_metadata_values_pk", ["document_id", "field_id"])
    .modifyEnd(sql`without rowid`)
    .execute();
  await db.schema
    .createIndex("document_metadata_values_by_field")
    .on("document_metadata_values")
    .column("field_id")
    .execute();
}

async function createTagTables(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("tags")
    .addColumn("id", "text", (column) => column.primaryKey())
    .addColumn("workspace_id", "text", (column) =>
      column.notNull().references("workspaces.id").onDelete("cascade"),
    )
    .addColumn("type", "text", (column) => column.notNull())
    .addColumn("name", "text", (column) => column.notNull())
    .execute();

  await db.schema
    .createTable("tag_bindings")
    .addColumn("seq", "integer", (column) => column.primaryKey().autoIncrement())
    .addColumn("id", "text", (column) => column.notNull().unique())
    .addColumn("workspace_id", "text", (column) =>
      column.notNull().references("workspaces.id").onDelete("cascade"),
    )
    .addColumn("tag_id", "text", (column) => column.notNull().references("tags.id").onDelete("cascade"))
    .addColumn("target_id", "text", (column) => column.notNull())
    .addColumn("created_at", "integer", (column) => column.notNull())
    .addUniqueConstraint("tag_bindings_pair", ["tag_id", "target_id"])
    .execute();
  await db.schema
    .createIndex("tag_bindings_by_target")
    .on("tag_bindings")
    .columns(["target_id", "seq"])
    .execute();
}

async function createConversationTables(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("sites")
    .addColumn("app_id", "text", (column) => column.primaryKey().references("apps.id").onDelete("cascade"))
    .addColumn("title", "text", (column) => column.notNull())
    .addColumn("chat_color_theme", "text", (column) => column.notNull())
    .addColumn("chat_color_theme_inverted", "integer", (column) => column.notNull())
    .addColumn("icon_type", "text", (column) => column.notNull())
    .addColumn("icon", "text", (column) => column.notNull())
    .addColumn("icon_background", "text", (column) => column.notNull())
    .addColumn("description", "text", (column) => column.notNull())
    .addColumn("copyright", "text", (column) => column.notNull())
    .addColumn("privacy_policy", "text", (column) => column.notNull())
    .addColumn("input_placeholder", "text")
    .addColumn("custom_disclaimer", "text", (column) => column.notNull())
    .addColumn("default_language", "text", (column) => column.notNull())
    .addColumn("show_workflow_steps", "integer", (column) => column.notNull())
    .addColumn("use_icon_as_answer_icon", "integer", (column) => column.notNull())
    .execute();

  await db.schema
    .createTable("end_users")
    .addColumn("id", "text", (column) => column.primaryKey())
    .addColumn("app_id", "text", (column) => column.notNull().references("apps.id").onDelete("cascade"))
    .addColumn("session_id", "text", (column) => column.notNull())
    .addUniqueConstraint("end_users_session_per_app", ["app_id", "session_id"])
    .execute();

  await db.schema
    .createTable("conversations")
    .addColumn("id", "text", (column) => column.primaryKey())
    .addColumn("app_id", "text", (column) => column.notNull().references("apps.id").onDelete("cascade"))
    .addColumn("end_user_id", "text", (column) =>
      column.notNull().references("end_users.id").onDelete("cascade"),
    )
    .addColumn("is_deleted", "integer", (column) => column.notNull())
    .execute();

  await db.schema
    .createTable("conversation_variables")
    .addColumn("conversation_id", "text", (column) =>
      column.notNull().references("conversations.id").onDelete("cascade"),
    )
    .addColumn("id", "text", (column) => column.notNull())
    .addColumn("name", "text", (column) => column.notNull())
    .addColumn("value_type", "text", (column) => column.notNull())
    .addColumn("value", "text", (column) => column.notNull())
    .addColumn("description", "text", (column) => column.notNull())
    .addColumn("created_at", "integer", (column) => column.notNull())
    .addColumn("updated_at", "integer", (column) => column.notNull())
    .addPrimaryKeyConstraint("conversation_variables_pk", ["conversation_id", "id"])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error("The initial schema is not reversible: restore a backup instead.");
}
