import { type Document, displayStatus } from "@service-api/domain";
import type { BatchDocument, IndexingFence, IndexingPatch } from "@service-api/ports";
import type { Kysely, Updateable } from "kysely";
import type { DatabaseSchema, DocumentTable } from "../schema.js";
import type { SqlFeatures } from "../sql-features.js";
import { datasetServing, lockedWhereRowsLock } from "./dataset-rows.js";
import { documentFromRow } from "./document-rows.js";
import { toFlag } from "./rows.js";

/** The columns an indexing step sets (the display status is the caller's to add). */
export function indexingPatchColumns(patch: IndexingPatch): Updateable<DocumentTable> {
  const columns: Updateable<DocumentTable> = {};
  if (patch.indexingStatus !== undefined) columns.indexing_status = patch.indexingStatus;
  if (patch.error !== undefined) columns.error = patch.error;
  if (patch.wordCount !== undefined) columns.word_count = patch.wordCount;
  if (patch.tokens !== undefined) columns.tokens = patch.tokens;
  if (patch.completedAt !== undefined) columns.completed_at = patch.completedAt;
  if (patch.indexingLatency !== undefined) columns.indexing_latency = patch.indexingLatency;
  if (patch.processingStartedAt !== undefined) columns.processing_started_at = patch.processingStartedAt;
  if (patch.parsingCompletedAt !== undefined) columns.parsing_completed_at = patch.parsingCompletedAt;
  if (patch.cleaningCompletedAt !== undefined) columns.cleaning_completed_at = patch.cleaningCompletedAt;
  if (patch.splittingCompletedAt !== undefined) columns.splitting_completed_at = patch.splittingCompletedAt;
  if (patch.pausedAt !== undefined) columns.paused_at = patch.pausedAt;
  if (patch.stoppedAt !== undefined) columns.stopped_at = patch.stoppedAt;
  return columns;
}

/**
 * In a transaction: takes the document's dataset (its lock, as every write to a dataset's documents
 * takes it first: one lock order), then sets `columns` on the document while the fence holds (its
 * indexing job, held by that worker), its display status following; false, writing nothing, when
 * the fence does not hold or the document is gone.
 */
export async function writeWhileFenced(
  trx: Kysely<DatabaseSchema>,
  features: SqlFeatures,
  documentId: string,
  { jobId, holder }: IndexingFence,
  columns: Updateable<DocumentTable>,
): Promise<boolean> {
  const [owner] = await trx
    .selectFrom("documents")
    .select("dataset_id")
    .where("id", "=", documentId)
    .execute();
  if (!owner) return false;
  if (features.locksRows)
    await lockedWhereRowsLock(
      features,
      datasetServing(trx, owner.dataset_id, undefined),
      owner.dataset_id,
    ).execute();
  const [row] = await trx
    .updateTable("documents")
    .set({ ...columns, indexing_job: jobId })
    .where("id", "=", documentId)
    .where("indexing_job", "=", jobId)
    .where(({ exists, selectFrom }) =>
      exists(selectFrom("jobs").select("id").where("id", "=", jobId).where("lease_owner", "=", holder)),
    )
    .returningAll()
    .execute();
  if (!row) return false;
  const shown = displayStatus(documentFromRow(row));
  if (shown !== row.display_status)
    await trx.updateTable("documents").set({ display_status: shown }).where("id", "=", documentId).execute();
  return true;
}

/** The dataset's documents of a batch, by position then id, with their segments counted. */
export async function readBatch(
  db: Kysely<DatabaseSchema>,
  datasetId: string,
  batch: string,
): Promise<BatchDocument[]> {
  const rows = await db
    .selectFrom("documents")
    .selectAll("documents")
    .select((eb) => [
      eb
        .selectFrom("chunks")
        .select(eb.fn.countAll<number>().as("count"))
        .whereRef("chunks.document_id", "=", "documents.id")
        .where("chunks.status", "<>", "re_segment")
        .as("total_segments"),
      eb
        .selectFrom("chunks")
        .select(eb.fn.countAll<number>().as("count"))
        .whereRef("chunks.document_id", "=", "documents.id")
        .where("chunks.status", "<>", "re_segment")
        // A chunk stored before segments had their times (an import's) is a completed one.
        .where((inner) =>
          inner.or([inner("chunks.completed_at", "is not", null), inner("chunks.status", "=", "completed")]),
        )
        .as("completed_segments"),
    ])
    .where("dataset_id", "=", datasetId)
    .where("batch", "=", batch)
    .orderBy("position")
    .orderBy("id")
    .execute();
  return rows.map((row) => ({
    document: documentFromRow(row),
    totalSegments: Number(row.total_segments ?? 0),
    completedSegments: Number(row.completed_segments ?? 0),
  }));
}

/** The dataset's enabled uploaded-file document of this name, first by position then id. */
export async function readReusable(
  db: Kysely<DatabaseSchema>,
  datasetId: string,
  name: string,
): Promise<Document | undefined> {
  const [row] = await db
    .selectFrom("documents")
    .selectAll()
    .where("dataset_id", "=", datasetId)
    .where("name", "=", name)
    .where("data_source_type", "=", "upload_file")
    .where("enabled", "=", toFlag(true))
    .orderBy("position")
    .orderBy("id")
    .limit(1)
    .execute();
  return row && documentFromRow(row);
}
