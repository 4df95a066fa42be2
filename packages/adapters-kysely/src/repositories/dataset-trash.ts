import { type Kysely, sql } from "kysely";
import { TRASH_WORKSPACE, TRASH_WORKSPACE_ID } from "../migrations/datasets-by-api.js";
import type { DatabaseSchema } from "../schema.js";
import type { SqlFeatures } from "../sql-features.js";
import { toFlag } from "./rows.js";

/**
 * Deletes a dataset as every reader sees it (`DatasetRepository.moveToTrash`): it moves to the
 * trash workspace (made by the first delete), renamed to its id and its API off, and its tag
 * bindings go. Three statements whatever the dataset holds.
 */
export async function moveDatasetToTrash(
  db: Kysely<DatabaseSchema>,
  workspaceId: string,
  datasetId: string,
): Promise<boolean> {
  const move = async (trx: Kysely<DatabaseSchema>) => {
    await trx
      .insertInto("workspaces")
      .values(TRASH_WORKSPACE)
      .onConflict((conflict) => conflict.doNothing())
      .execute();
    const moved = await trx
      .updateTable("datasets")
      .set((eb) => ({ workspace_id: TRASH_WORKSPACE_ID, name: eb.ref("id"), enable_api: toFlag(false) }))
      .where("id", "=", datasetId)
      .where("workspace_id", "=", workspaceId)
      .returning("id")
      .execute();
    if (moved.length === 0) return false;
    await trx.deleteFrom("tag_bindings").where("target_id", "=", datasetId).execute();
    return true;
  };
  return db.isTransaction ? move(db) : db.transaction().execute(move);
}

/**
 * One batch of a deleted dataset's purge (`DatasetRepository.purgeTrashed`), in a transaction that
 * holds the trashed dataset's row: two workers purging it at once (a lease taken over from a slow
 * one) take turns. Up to `batch` documents go, their chunks and values by cascade and their files
 * unless another document uses them; with none left, its fields, bindings and row.
 */
export function purgeTrashedDataset(
  db: Kysely<DatabaseSchema>,
  features: SqlFeatures,
  datasetId: string,
  batch: number,
): Promise<"more" | "done"> {
  // Written into the statement, not a parameter: a statement planned once has a known limit.
  const limit = sql.lit(Math.max(1, Math.floor(batch)));
  return db.transaction().execute(async (trx) => {
    const trashed = trx
      .selectFrom("datasets")
      .select("id")
      .where("id", "=", datasetId)
      .where("workspace_id", "=", TRASH_WORKSPACE_ID);
    if ((await (features.locksRows ? trashed.forUpdate() : trashed).execute()).length === 0) return "done";
    const deleted = await trx
      .deleteFrom("documents")
      .where(
        "id",
        "in",
        trx.selectFrom("documents").select("id").where("dataset_id", "=", datasetId).limit(limit),
      )
      .returning("upload_file_id")
      .execute();
    const files = [...new Set(deleted.map((row) => row.upload_file_id).filter((id) => id !== null))];
    if (files.length > 0)
      await trx
        .deleteFrom("upload_files")
        .where("id", "in", files)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(selectFrom("documents").select("id").whereRef("upload_file_id", "=", "upload_files.id")),
          ),
        )
        .execute();
    if (deleted.length > 0) return "more";
    await trx.deleteFrom("metadata_fields").where("dataset_id", "=", datasetId).execute();
    // A binding made by a bind that raced the delete goes too (and the dataset's trigger would).
    await trx.deleteFrom("tag_bindings").where("target_id", "=", datasetId).execute();
    await trx.deleteFrom("datasets").where("id", "=", datasetId).execute();
    return "done";
  });
}
