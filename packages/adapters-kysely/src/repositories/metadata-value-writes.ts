import type { DocumentValueChanges } from "@service-api/ports";
import { type Kysely, type RawBuilder, sql } from "kysely";
import { compiledForIds, runBuilt } from "../compiled-read.js";
import type { DatabaseSchema } from "../schema.js";
import { rowsOf, rowsParameter, type SqlFeatures, type ValueWrite } from "../sql-features.js";

/** The changes as rows (`ValueWrite`). */
function asRows(datasetId: string, changes: readonly DocumentValueChanges[]): ValueWrite {
  return {
    datasetId,
    documentIds: [...new Set(changes.map((change) => change.documentId))].sort(),
    set: changes.flatMap(({ documentId, set }) =>
      set.map(([fieldId, value]) => [documentId, fieldId, value]),
    ),
    cleared: changes.flatMap(({ documentId, replaceAll, clear }) =>
      replaceAll ? [] : clear.map((fieldId) => [documentId, fieldId]),
    ),
    replacing: changes.filter((change) => change.replaceAll).map((change) => change.documentId),
    kept: changes.flatMap(({ documentId, replaceAll, set }) =>
      replaceAll ? set.map(([fieldId]) => [documentId, fieldId]) : [],
    ),
  };
}

/**
 * The values the write removes: fields cleared, and with `replaceAll` every field not set. A
 * condition of constant size however many documents and fields: the documents as one list (which
 * an index serves), then the (document, field) pairs cleared and, for the documents replacing all
 * their values, the pairs they keep, each as one parameter.
 */
function removed(
  features: SqlFeatures,
  { cleared, replacing, kept }: ValueWrite,
): RawBuilder<boolean> | undefined {
  if (cleared.length === 0 && replacing.length === 0) return undefined;
  const documentIds = [...new Set([...cleared.map(([documentId]) => documentId as string), ...replacing])];
  const ofDocuments = (ids: readonly string[]) =>
    features.inList(sql.ref("document_id"), features.listParameter(ids));
  // Not correlated: the database reads the pairs once (SQLite into an index), then looks each up.
  const isPair = (pairs: readonly (readonly string[])[]) =>
    sql<boolean>`((document_id, field_id) in
      (select pair.column1, pair.column2 from ${rowsOf(features, pairs, 2)} as pair))`;
  const conditions: RawBuilder<boolean>[] = [];
  if (cleared.length > 0) conditions.push(isPair(cleared));
  if (replacing.length > 0)
    conditions.push(
      kept.length > 0 ? sql`(${ofDocuments(replacing)} and not ${isPair(kept)})` : ofDocuments(replacing),
    );
  return sql<boolean>`(${ofDocuments(documentIds)} and (${sql.join(conditions, sql` or `)}))`;
}

/** Whether the document of that id is one of the dataset's (for the write, locked where rows lock). */
type DocumentCheck = (documentId: RawBuilder<unknown>) => RawBuilder<boolean>;

/**
 * Sets the values (an upsert), each only while its document and field are the dataset's: a
 * lookup by id for each value, never a list of the dataset's documents. `values` is the table of
 * (document, field, value) rows, one parameter (`SqlFeatures.rowsFrom`). The `where` also keeps
 * SQLite from reading `on conflict` as a join's `on`.
 */
function upsert(
  values: RawBuilder<unknown>,
  dataset: RawBuilder<unknown>,
  isDatasetDocument: DocumentCheck,
  counterOrder?: RawBuilder<unknown>,
) {
  // By field, then counter row: a new value raises its field's count (a trigger) in a row chosen by
  // its document, so two writes to different documents lock the counters' rows in one order.
  // Writes to one document wait for each other at its lock, taken first.
  return sql`insert into document_metadata_values (document_id, field_id, value)
    select v.column1, v.column2, v.column3 from ${values} as v
    where ${isDatasetDocument(sql.ref("v.column1"))}
      and exists (select 1 from metadata_fields where id = v.column2 and dataset_id = ${dataset})
    order by v.column2, ${counterOrder ? sql`${counterOrder}, ` : sql``}v.column1
    on conflict (document_id, field_id) do update set value = excluded.value`;
}

/** A delete racing each attempt is rarer each time; past this, the error stands. */
const WRITE_ATTEMPTS = 3;

/**
 * Writes the changes. Where a WITH may write and the database has `valueWriteAfterLocks`
 * (PostgreSQL), a write that only sets values is one statement that does not wait: the dataset's
 * lock first (past its turnstile, `DatasetPassage`), shared, as every write to its documents and
 * values takes it (value writes exclude what deletes the dataset's fields or documents, not each
 * other); then its documents, in id order, so that two writes to one document's values run one
 * after the other; then the upsert. A write that removes values, or finds a lock held, is one call
 * of `valueWriteAfterLocks`, which waits for the same locks and then writes in statements of their
 * own, each seeing what committed meanwhile. Both take the fields' counter rows in one order
 * (field, then `fieldCountSlot`): the upsert as it adds values, the call every row it will change
 * before it removes or adds one (migration 0015), so two writes to different documents never
 * deadlock. Elsewhere (SQLite, whose writers are serial anyway) the delete and the upsert run in
 * one transaction.
 */
export async function writeValues(
  db: Kysely<DatabaseSchema>,
  features: SqlFeatures,
  datasetId: string,
  changes: readonly DocumentValueChanges[],
): Promise<void> {
  const write = asRows(datasetId, changes);
  const removing = removed(features, write);
  // Changes that neither set nor remove a value write nothing.
  if (!removing && write.set.length === 0) return;
  const afterLocks = features.valueWriteAfterLocks;
  if (features.modifyingCtes && afterLocks) {
    // A statement's snapshot is taken before its locks. Had a write to these documents committed
    // in between, the locks come free at once, and the upsert (whose conflicts see the latest rows)
    // would follow that write while a delete (which sees the snapshot) missed what it added: a
    // clear lost, a replace keeping a value. Only a write that removes nothing can run so.
    if (!db.isTransaction && !removing && (await setWithoutWaiting(db, features, write))) return;
    await runBuilt(db, afterLocks(write).compile(db));
    return;
  }
  const isOfDataset: DocumentCheck = (id) =>
    sql<boolean>`exists (select 1 from documents where id = ${id} and dataset_id = ${datasetId})`;
  const writeAll = async (trx: Kysely<DatabaseSchema>) => {
    if (removing)
      await sql`delete from document_metadata_values
        where ${isOfDataset(sql.ref("document_metadata_values.document_id"))} and ${removing}`.execute(trx);
    if (write.set.length > 0)
      await upsert(rowsOf(features, write.set, 3), sql`${datasetId}`, isOfDataset).execute(trx);
  };
  if (db.isTransaction) await writeAll(db);
  else await db.transaction().execute(writeAll);
}

/**
 * The statement of `setWithoutWaiting`, compiled once per count of documents up to
 * `LARGEST_COMPILED_COUNT` (on PostgreSQL, named). Each document id is a parameter of its own, so
 * that the plan PostgreSQL keeps for any ids costs what a plan for given ids costs: with the ids as
 * one array it estimated ten rows where a plan for one id finds one, judged the kept plan dearer,
 * and planned every write again (0.2–0.6 ms of the server's time each, more than the write took).
 */
const setWithoutWaitingStatement = compiledForIds((db, among, features, datasetId, values) => {
  const turnstile = features.datasetTurnstile?.(datasetId as string, "try-shared") ?? sql`true`;
  const isLocked: DocumentCheck = (id) => sql<boolean>`${id} in (select id from documents_locked)`;
  const slot = features.fieldCountSlot?.(sql.ref("v.column1"));
  const upserting = upsert(features.rowsFrom(values, 3), sql`(select id from locked)`, isLocked, slot);
  const statement = sql<{ passed: boolean }>`with locked as materialized (select id from datasets
      where id = ${datasetId} and ${turnstile} for share nowait),
    documents_locked as materialized (select id from documents
      where dataset_id = (select id from locked) and ${among("id")}
      order by id for no key update nowait),
    upserted as (${upserting})
    select exists (select from locked) as passed`;
  return { compile: () => statement.compile(db) };
});

/**
 * The values set in one statement that takes its locks `NOWAIT` and tries the turnstile: true when
 * written, false when a lock was held or the turnstile closed (nothing written; the caller waits).
 */
async function setWithoutWaiting(
  db: Kysely<DatabaseSchema>,
  features: SqlFeatures,
  write: ValueWrite,
): Promise<boolean> {
  const { datasetId, documentIds } = write;
  const values = rowsParameter(write.set);
  for (let attempt = 1; ; attempt += 1) {
    try {
      const [row] = await setWithoutWaitingStatement(db, features, documentIds, datasetId, values);
      return row?.passed === true;
    } catch (error) {
      // A write holds a lock: wait for it in the caller's call, not here.
      if (features.isLockUnavailable(error)) return false;
      // A field or document deleted after this statement's snapshot was taken and before its lock
      // is still in the snapshot, so its value passes the check and breaks the foreign key. Run
      // again: the new snapshot leaves it out.
      if (attempt < WRITE_ATTEMPTS && features.isForeignKeyViolation(error)) continue;
      throw error;
    }
  }
}
