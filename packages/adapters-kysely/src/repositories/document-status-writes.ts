import { type Dataset, type Document, type DocumentStatusPatch, displayStatus } from "@service-api/domain";
import type { StatusUpdate } from "@service-api/ports";
import { type ExpressionBuilder, type Kysely, type Selectable, sql } from "kysely";
import { compiledForIds } from "../compiled-read.js";
import type { DatabaseSchema, DocumentTable } from "../schema.js";
import type { SqlFeatures } from "../sql-features.js";
import {
  DATASET_COLUMNS_PREFIXED,
  datasetFromPrefixed,
  datasetServing,
  lockedWhereRowsLock,
} from "./dataset-rows.js";
import { documentFromRow } from "./document-rows.js";
import { toFlag } from "./rows.js";

/**
 * The workspace's dataset (columns prefixed `ds_`), a row per document of the ids (or one row of
 * nulls beside it), and the workspace owner's id: a row while the dataset exists.
 */
const datasetDocumentsAndOwner = compiledForIds((db, among, _features, workspaceId, datasetId) =>
  db
    .selectFrom("datasets as ds")
    .leftJoin("documents as doc", (join) => join.onRef("doc.dataset_id", "=", "ds.id").on(among("doc.id")))
    .select(DATASET_COLUMNS_PREFIXED as never[])
    .selectAll("doc")
    .select((eb) =>
      eb
        .selectFrom("members")
        .select("members.id")
        .whereRef("members.workspace_id", "=", "ds.workspace_id")
        .where("members.role", "=", sql.lit("owner"))
        .limit(sql.lit(1))
        .as("owner_id"),
    )
    .where("ds.id", "=", datasetId as string)
    .where("ds.workspace_id", "=", workspaceId as string),
);

/** See `DocumentRepository.findForStatusUpdate`. */
export async function findForStatusUpdate(
  db: Kysely<DatabaseSchema>,
  features: SqlFeatures,
  workspaceId: string,
  datasetId: string,
  documentIds: readonly string[],
): Promise<{ dataset: Dataset | undefined; documents: Document[]; ownerId: string | null }> {
  const unique = [...new Set(documentIds)];
  const rows = (await datasetDocumentsAndOwner(db, features, unique, workspaceId, datasetId)) as (Record<
    string,
    unknown
  > & { id: string | null; owner_id: string | null })[];
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

/** Groups the items by a key, keeping the order of the groups' first items. */
function groupedBy<Item>(items: readonly Item[], keyOf: (item: Item) => string): Item[][] {
  const groups = new Map<string, Item[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return [...groups.values()];
}

/**
 * The columns the update sets: the patch's, and each document's display status (which the list's
 * filter and the dataset's counters read) as the domain gives it for the document once patched.
 * Documents are grouped by that status, so the statement grows with the statuses, not the documents.
 */
function columnsOf(features: SqlFeatures, { read, changing, patch }: StatusUpdate) {
  const byId = new Map(read.map((document) => [document.id, document]));
  const displayed = changing.flatMap((id) => {
    const document = byId.get(id);
    return document ? [{ id, status: displayStatus({ ...document, ...patch }) }] : [];
  });
  const cases = groupedBy(displayed, ({ status }) => JSON.stringify(status)).map(
    (group) =>
      sql`when ${features.inList(
        sql.ref("id"),
        features.listParameter(group.map(({ id }) => id)),
      )} then ${group[0]?.status}`,
  );
  return {
    ...Object.fromEntries(
      Object.entries(patch).map(([field, value]) => [
        COLUMN_OF[field as keyof DocumentStatusPatch],
        typeof value === "boolean" ? toFlag(value) : value,
      ]),
    ),
    display_status: sql<string>`case ${sql.join(cases, sql` `)} else display_status end`,
  };
}

/**
 * Whether every document read still has what the action's rules read: a count of those that do.
 * One condition per combination of those columns, each with its documents' ids as one list.
 */
const stillAsRead =
  (features: SqlFeatures, read: readonly Document[]) =>
  (eb: ExpressionBuilder<DatabaseSchema, "documents">) =>
    eb.or(
      groupedBy(read, (document) =>
        JSON.stringify([document.indexingStatus, document.enabled, document.archived, document.isPaused]),
      ).map((group) => {
        const [first] = group as [Document];
        return eb.and([
          features.inList(eb.ref("id"), features.listParameter(group.map(({ id }) => id))),
          eb("indexing_status", "=", first.indexingStatus),
          eb("enabled", "=", toFlag(first.enabled)),
          eb("archived", "=", toFlag(first.archived)),
          eb("is_paused", "=", toFlag(first.isPaused)),
        ]);
      }),
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
  const readIds = features.listParameter(read.map((document) => document.id).sort());
  const changingIds = features.listParameter(changing);
  if (features.locksRows) {
    const [row] = await db
      .with(
        (cte) => cte("locked").materialized(),
        (w) => lockedWhereRowsLock(features, datasetServing(w, datasetId, undefined), datasetId),
      )
      .with(
        (cte) => cte("as_read").materialized(),
        (w) =>
          w
            .selectFrom("documents")
            .select(["id", "indexing_status", "enabled", "archived", "is_paused"])
            .where("dataset_id", "=", (eb) => eb.selectFrom("locked").select("id"))
            .where((eb) => features.inList(eb.ref("id"), readIds))
            .orderBy("id")
            .forNoKeyUpdate(),
      )
      .with("updated", (w) =>
        w
          .updateTable("documents")
          .set(columnsOf(features, update))
          .where("dataset_id", "=", datasetId)
          .where((eb) => features.inList(eb.ref("id"), changingIds))
          .where(
            (eb) =>
              eb
                .selectFrom("as_read")
                .select((inner) => inner.fn.countAll<number>().as("n"))
                .where(stillAsRead(features, read) as never),
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
    .set(columnsOf(features, update))
    .where("dataset_id", "=", datasetId)
    .where((eb) => features.inList(eb.ref("id"), changingIds))
    .where(
      (eb) =>
        eb
          .selectFrom("documents as as_read")
          .select((inner) => inner.fn.countAll<number>().as("n"))
          // Looked up by the ids read, never through the dataset's index: that walked every one of
          // its documents (SQLite's planner knows no sizes). The unary plus keeps the dataset's
          // column a plain condition; this branch is SQLite's.
          .where((inner) => features.inList(inner.ref("as_read.id"), readIds))
          .where(sql`+${sql.ref("as_read.dataset_id")}`, "=", datasetId)
          .where(stillAsRead(features, read) as never),
      "=",
      read.length,
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
