import { type Dataset, type Document, type DocumentStatusPatch, displayStatus } from "@service-api/domain";
import type { StatusUpdate } from "@service-api/ports";
import { type ExpressionBuilder, type Kysely, type Selectable, sql } from "kysely";
import { compiledByCount } from "../compiled-read.js";
import type { DatabaseSchema, DocumentTable } from "../schema.js";
import type { SqlFeatures } from "../sql-features.js";
import { DATASET_COLUMNS_PREFIXED, datasetFromPrefixed } from "./dataset-rows.js";
import { documentFromRow } from "./document-rows.js";
import { toFlag } from "./rows.js";

/**
 * The workspace's dataset (columns prefixed `ds_`), a row per document of the ids (or one row of
 * nulls beside it), and the workspace owner's id: a row while the dataset exists.
 */
const datasetDocumentsAndOwner = compiledByCount((db, count, workspaceId, datasetId, ...ids) =>
  db
    .selectFrom("datasets as ds")
    .leftJoin("documents as doc", (join) =>
      count > 0
        ? join.onRef("doc.dataset_id", "=", "ds.id").on("doc.id", "in", ids.slice(0, count) as string[])
        : join.on(sql<boolean>`1 = 0`),
    )
    .select(DATASET_COLUMNS_PREFIXED as never[])
    .selectAll("doc")
    .select((eb) =>
      eb
        .selectFrom("members")
        .select("members.id")
        .whereRef("members.workspace_id", "=", "ds.workspace_id")
        .where("members.role", "=", "owner")
        .limit(sql.lit(1))
        .as("owner_id"),
    )
    .where("ds.id", "=", datasetId as string)
    .where("ds.workspace_id", "=", workspaceId as string),
);

/** See `DocumentRepository.findForStatusUpdate`. */
export async function findForStatusUpdate(
  db: Kysely<DatabaseSchema>,
  workspaceId: string,
  datasetId: string,
  documentIds: readonly string[],
): Promise<{ dataset: Dataset | undefined; documents: Document[]; ownerId: string | null }> {
  const unique = [...new Set(documentIds)];
  const rows = (await datasetDocumentsAndOwner(
    db,
    unique.length,
    workspaceId,
    datasetId,
    ...unique,
  )) as (Record<string, unknown> & { id: string | null; owner_id: string | null })[];
  const [first] = rows;
  if (!first) return { dataset: undefined, documents: [], ownerId: null };
  return {
    dataset: datasetFromPrefixed(first),
    documents: rows
      .filter((row) => row.id !== null)
      .map((row) => documentFromRow(row as unknown as Selectable<DocumentTable>)),
    ownerId: first.owner_id,
  };
}

const COLUMN_OF = {
  enabled: "enabled",
  disabledAt: "disabled_at",
  disabledBy: "disabled_by",
  archived: "archived",
  archivedAt: "archived_at",
  archivedBy: "archived_by",
  updatedAt: "updated_at",
} as const satisfies Record<keyof DocumentStatusPatch, keyof DocumentTable>;

/**
 * The columns the update sets: the patch's, and each document's display status (which the list's
 * filter and the dataset's counters read) as the domain gives it for the document once patched.
 */
function columnsOf({ read, changing, patch }: StatusUpdate) {
  const byId = new Map(read.map((document) => [document.id, document]));
  const displayed = changing.flatMap((id) => {
    const document = byId.get(id);
    return document ? [[id, displayStatus({ ...document, ...patch })] as const] : [];
  });
  const cases = displayed.map(([id, status]) => sql`when ${id} then ${status}`);
  return {
    ...Object.fromEntries(
      Object.entries(patch).map(([field, value]) => [
        COLUMN_OF[field as keyof DocumentStatusPatch],
        typeof value === "boolean" ? toFlag(value) : value,
      ]),
    ),
    display_status: sql<string>`case id ${sql.join(cases, sql` `)} else display_status end`,
  };
}

/** Whether every document read still has what the action's rules read: a count of those that do. */
const stillAsRead = (read: readonly Document[]) => (eb: ExpressionBuilder<DatabaseSchema, "documents">) =>
  eb.or(
    read.map((document) =>
      eb.and([
        eb("id", "=", document.id),
        eb("indexing_status", "=", document.indexingStatus),
        eb("enabled", "=", toFlag(document.enabled)),
        eb("archived", "=", toFlag(document.archived)),
        eb("is_paused", "=", toFlag(document.isPaused)),
      ]),
    ),
  );

/**
 * See `DocumentRepository.updateStatus`: one statement. Where rows lock, it locks the dataset and
 * then the documents read, in id order, and counts those still as read on their locked (latest)
 * versions; the update runs only when all are. Elsewhere (SQLite, one writer at a time) the same
 * count is a sub-select of the update.
 */
export async function updateStatus(
  db: Kysely<DatabaseSchema>,
  features: SqlFeatures,
  datasetId: string,
  update: StatusUpdate,
): Promise<boolean> {
  const { read, changing } = update;
  if (changing.length === 0) return true;
  const readIds = read.map((document) => document.id).sort();
  if (features.locksRows) {
    const [row] = await db
      .with(
        (cte) => cte("locked").materialized(),
        (w) => w.selectFrom("datasets").select("id").where("id", "=", datasetId).forUpdate(),
      )
      .with(
        (cte) => cte("as_read").materialized(),
        (w) =>
          w
            .selectFrom("documents")
            .select(["id", "indexing_status", "enabled", "archived", "is_paused"])
            .where("dataset_id", "=", (eb) => eb.selectFrom("locked").select("id"))
            .where("id", "in", readIds)
            .orderBy("id")
            .forNoKeyUpdate(),
      )
      .with("updated", (w) =>
        w
          .updateTable("documents")
          .set(columnsOf(update))
          .where("dataset_id", "=", datasetId)
          .where("id", "in", changing)
          .where(
            (eb) =>
              eb
                .selectFrom("as_read")
                .select((inner) => inner.fn.countAll<number>().as("n"))
                .where(stillAsRead(read) as never),
            "=",
            read.length,
          )
          .returning("id"),
      )
      .selectFrom("updated")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .execute();
    return Number(row?.count ?? 0) > 0;
  }
  const result = await db
    .updateTable("documents")
    .set(columnsOf(update))
    .where("dataset_id", "=", datasetId)
    .where("id", "in", changing)
    .where(
      (eb) =>
        eb
          .selectFrom("documents as as_read")
          .select((inner) => inner.fn.countAll<number>().as("n"))
          .where("as_read.dataset_id", "=", datasetId)
          .where(stillAsRead(read) as never),
      "=",
      read.length,
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
