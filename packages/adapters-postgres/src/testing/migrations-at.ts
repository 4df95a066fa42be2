import { type Dataset, type Document, displayStatus } from "@service-api/domain";
import { Kysely, PostgresDialect, sql } from "kysely";
import type { Migrator } from "kysely/migration";
import pg from "pg";
import { migratorOf } from "../migrations/index.js";

/** A connection to the schema at `url` and a migrator of it, for a migration's tests to step through releases. */
export async function migrationsAt(url: string): Promise<{ db: Kysely<unknown>; migrator: Migrator }> {
  const pool = new pg.Pool({ connectionString: url });
  // A connection still ending when its database is dropped errs: heard, not the end of the run.
  pool.on("error", () => {});
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
  return { db, migrator: await migratorOf(db) };
}

/**
 * Stores a dataset as the schema held one from migration 0006 to 0015, before datasets had their
 * technique, permission and retrieval model (0016): for a test that seeds an earlier release.
 */
export async function saveDatasetAsBefore0016(db: Kysely<unknown>, dataset: Dataset): Promise<void> {
  const rule = dataset.processRule;
  await sql`insert into datasets (id, workspace_id, name, enable_api, built_in_field_enabled,
      process_rule_id, process_rule_mode, process_rule_rules, description, created_by, updated_by,
      created_at, updated_at)
    values (${dataset.id}, ${dataset.workspaceId}, ${dataset.name}, ${dataset.enableApi},
      ${dataset.builtInFieldEnabled}, ${rule?.id ?? null}, ${rule?.mode ?? null},
      ${rule ? JSON.stringify(rule.rules) : null}, ${dataset.description}, ${dataset.createdBy},
      ${dataset.updatedBy}, ${dataset.createdAt}, ${dataset.updatedAt})`.execute(db);
}

/**
 * Stores a document as the schema held one from migration 0006 to 0017, before its batch and
 * indexing times (0018): for a test that seeds an earlier release.
 */
export async function saveDocumentAsBefore0018(db: Kysely<unknown>, document: Document): Promise<void> {
  const rule = document.processRule;
  await sql`insert into documents (id, dataset_id, position, data_source_type, upload_file_id,
      process_rule_id, process_rule_mode, process_rule_rules, name, created_from, created_by, created_at,
      updated_at, tokens, word_count, indexing_status, is_paused, error, enabled, disabled_at, disabled_by,
      archived, archived_at, archived_by, display_status, doc_form, doc_language, doc_type, completed_at,
      indexing_latency, summary_index_status, need_summary)
    values (${document.id}, ${document.datasetId}, ${document.position}, ${document.dataSourceType},
      ${document.uploadFileId}, ${rule.id}, ${rule.mode}, ${JSON.stringify(rule.rules)}, ${document.name},
      ${document.createdFrom}, ${document.createdBy}, ${document.createdAt}, ${document.updatedAt},
      ${document.tokens}, ${document.wordCount}, ${document.indexingStatus}, ${document.isPaused},
      ${document.error}, ${document.enabled}, ${document.disabledAt}, ${document.disabledBy},
      ${document.archived}, ${document.archivedAt}, ${document.archivedBy}, ${displayStatus(document)},
      ${document.docForm}, ${document.docLanguage}, ${document.docType}, ${document.completedAt},
      ${document.indexingLatency}, ${document.summaryIndexStatus}, ${document.needSummary})`.execute(db);
}
