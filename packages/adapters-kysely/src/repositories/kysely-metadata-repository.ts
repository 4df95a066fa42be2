import {
  type MetadataEntry,
  type MetadataField,
  type MetadataFieldType,
  type MetadataFieldUsage,
  StoreUnavailableError,
} from "@service-api/domain";
import type { DocumentValueChanges, MetadataRepository, Renamed, SaveRefusal } from "@service-api/ports";
import { type Kysely, type Selectable, sql } from "kysely";
import { compiledForIds, compiledRead, compiledReadWith } from "../compiled-read.js";
import type { GroupFlush } from "../group-flush.js";
import type { DatabaseSchema, MetadataFieldTable } from "../schema.js";
import type { SqlFeatures } from "../sql-features.js";
import {
  DATASET_COLUMNS_PREFIXED,
  type DatasetScope,
  datasetFromPrefixed,
  lockedWhereRowsLock,
  withAndWithoutServing,
} from "./dataset-rows.js";
import { entryFromRow, valuesWithFields } from "./metadata-rows.js";
import { writeValues } from "./metadata-value-writes.js";
import { jsonRows, updateAllBut } from "./rows.js";

export const fieldFromRow = (
  row: Omit<Selectable<MetadataFieldTable>, "document_count" | "position">,
): MetadataField => ({
  id: row.id,
  datasetId: row.dataset_id,
  name: row.name,
  type: row.type as MetadataFieldType,
  createdAt: Number(row.created_at),
});

const fieldRow = (field: MetadataField) => ({
  id: field.id,
  dataset_id: field.datasetId,
  name: field.name,
  type: field.type,
  created_at: field.createdAt,
});

/** The place after the dataset's last field: the order fields are created in. */
const nextPosition = (db: Kysely<DatabaseSchema>, datasetId: string) =>
  db
    .selectFrom("metadata_fields")
    .select((eb) => eb(eb.fn.coalesce(eb.fn.max("position"), eb.lit(0)), "+", 1).as("next"))
    .where("dataset_id", "=", datasetId);

const FIELD_COLUMNS = ["id", "dataset_id", "name", "type", "created_at"] as const;
const fieldsOfDataset = compiledRead((db, datasetId: string) =>
  db
    .selectFrom("metadata_fields")
    .select(FIELD_COLUMNS)
    .where("dataset_id", "=", datasetId)
    .orderBy("created_at")
    .orderBy("position")
    .orderBy("id"),
);
const fieldsOfDatasets = compiledForIds((db, among) =>
  db
    .selectFrom("metadata_fields")
    .select(FIELD_COLUMNS)
    .where(among("dataset_id"))
    .orderBy("created_at")
    .orderBy("position")
    .orderBy("id"),
);
const fieldOfDataset = compiledRead((db, datasetId: string, fieldId: string) =>
  db
    .selectFrom("metadata_fields")
    .select(FIELD_COLUMNS)
    .where("id", "=", fieldId)
    .where("dataset_id", "=", datasetId),
);
const renameStatement = (
  db: Kysely<DatabaseSchema>,
  scoped: DatasetScope,
  datasetId: string,
  fieldId: string,
  name: string,
  servedTo: string | undefined,
) =>
  db
    .updateTable("metadata_fields")
    .set({ name })
    .where("id", "=", fieldId)
    .where("dataset_id", "=", scoped(db, datasetId, servedTo))
    .returning(FIELD_COLUMNS);
/**
 * A field's write statements, compiled once (on PostgreSQL, named): without a dataset check, and
 * checking that the dataset serves the workspace (`ServedTo`) as they write.
 */
const fieldWrites = (scoped: DatasetScope) => ({
  /** The field after the dataset's last, unless its name is taken; the dataset's row gives its id. */
  insert: compiledRead(
    (
      db,
      id: string,
      datasetId: string,
      name: string,
      type: string,
      createdAt: number,
      servedTo: string | undefined,
    ) =>
      db
        .insertInto("metadata_fields")
        .columns(["id", "dataset_id", "name", "type", "created_at", "position"])
        .expression(
          db
            .selectFrom(scoped(db, datasetId, servedTo).as("ds"))
            .select([
              sql.val(id).as("id"),
              "ds.id as dataset_id",
              sql.val(name).as("name"),
              sql.val(type).as("type"),
              sql`cast(${createdAt} as bigint)`.as("created_at"),
              nextPosition(db, datasetId).as("position"),
            ])
            // SQLite reads `ON CONFLICT` after a `SELECT` without `WHERE` as a join's `ON`.
            .where(sql<boolean>`true`),
        )
        .onConflict((conflict) => conflict.doNothing())
        .returning("id"),
  ),
  rename: compiledRead((db, datasetId: string, fieldId: string, name: string, servedTo: string | undefined) =>
    renameStatement(db, scoped, datasetId, fieldId, name, servedTo),
  ),
  /** The rename committed without waiting for the flush (`earlyLockRelease`): await the flush after. */
  renameUnflushed: compiledReadWith(
    (db, features, datasetId: string, fieldId: string, name: string, servedTo: string | undefined) =>
      renameStatement(db, scoped, datasetId, fieldId, name, servedTo).where(
        features.earlyLockRelease!.commitUnflushed,
      ),
  ),
  // The values go with the field (foreign key, on delete cascade), and their triggers take the
  // field's counter rows. Where rows lock, the dataset is locked first, in the same statement, as
  // every write to its documents and values does: one lock order, no deadlock.
  delete: compiledReadWith((db, features, datasetId: string, fieldId: string, servedTo: string | undefined) =>
    db
      .deleteFrom("metadata_fields")
      .where("id", "=", fieldId)
      .where("dataset_id", "=", lockedWhereRowsLock(features, scoped(db, datasetId, servedTo), datasetId))
      .returning("id"),
  ),
});
const fieldWritesFor = withAndWithoutServing(fieldWrites);
const valuesOfDocument = compiledRead((db, documentId: string) => valuesWithFields(db, documentId));
const valuesOfDocuments = compiledForIds((db, among) =>
  db
    .selectFrom("document_metadata_values as value")
    .innerJoin("metadata_fields as field", "field.id", "value.field_id")
    .select(["value.document_id", "field.id", "field.name", "field.type", "value.value"])
    .where(among("value.document_id"))
    .orderBy("field.created_at")
    .orderBy("field.position")
    .orderBy("field.id"),
);
/**
 * The dataset (columns prefixed `ds_`) with its fields' usage as a JSON array (`field_rows`): one
 * row while it exists. A row per field repeated the dataset's columns, which the driver then read
 * once per field.
 */
const datasetWithFieldUsage = compiledReadWith((db, features, workspaceId: string, datasetId: string) => {
  const counted = features.fieldDocumentCount("field");
  return db
    .selectFrom("datasets as ds")
    .select(DATASET_COLUMNS_PREFIXED as never[])
    .select((eb) =>
      features
        .jsonArrayFrom(
          eb
            .selectFrom("metadata_fields as field")
            .$call(counted.joinCounts)
            .select(["field.id", "field.name", "field.type", counted.count.as("document_count")])
            .whereRef("field.dataset_id", "=", "ds.id")
            .orderBy("field.created_at")
            .orderBy("field.position")
            .orderBy("field.id"),
        )
        .as("field_rows"),
    )
    .where("ds.id", "=", datasetId)
    .where("ds.workspace_id", "=", workspaceId);
}) as unknown as (
  features: SqlFeatures,
) => (...args: unknown[]) => Promise<(Record<string, unknown> & { field_rows: unknown })[]>;

/**
 * The workspace's dataset (columns prefixed `ds_`) with its fields (`field_rows`) and which of
 * `documentIds` are its documents (`document_rows`), as JSON arrays: one row while it exists.
 */
const datasetFieldsAndDocuments = compiledForIds((db, among, features, workspaceId, datasetId) =>
  db
    .selectFrom("datasets as ds")
    .select(DATASET_COLUMNS_PREFIXED as never[])
    .select((eb) => [
      features
        .jsonArrayFrom(
          eb
            .selectFrom("metadata_fields as field")
            .select(FIELD_COLUMNS.map((column) => `field.${column}` as const))
            .whereRef("field.dataset_id", "=", "ds.id")
            .orderBy("field.created_at")
            .orderBy("field.position")
            .orderBy("field.id"),
        )
        .as("field_rows"),
      features
        .jsonArrayFrom(
          eb
            .selectFrom("documents as doc")
            .select("doc.id")
            .whereRef("doc.dataset_id", "=", "ds.id")
            .where(among("doc.id")),
        )
        .as("document_rows"),
    ])
    .where("ds.id", "=", datasetId as string)
    .where("ds.workspace_id", "=", workspaceId as string),
);

type FieldUsageRow = { id: string; name: string; type: string; document_count: number | string };

const usageFromRow = (row: FieldUsageRow): MetadataFieldUsage => ({
  id: row.id,
  name: row.name,
  type: row.type as MetadataFieldType,
  count: Number(row.document_count),
});

const fieldUsage = compiledReadWith((db, features, datasetId: string) => {
  const counted = features.fieldDocumentCount("metadata_fields");
  return db
    .selectFrom("metadata_fields")
    .$call(counted.joinCounts)
    .select([
      "metadata_fields.id",
      "metadata_fields.name",
      "metadata_fields.type",
      counted.count.as("document_count"),
    ])
    .where("metadata_fields.dataset_id", "=", datasetId)
    .orderBy("metadata_fields.created_at")
    .orderBy("metadata_fields.position")
    .orderBy("metadata_fields.id");
});

export class KyselyMetadataRepository implements MetadataRepository {
  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    private readonly features: SqlFeatures,
    /** Given outside transactions where locks are released early (`createKyselyRepositories`). */
    private readonly commitFlush?: GroupFlush,
  ) {}

  async saveField(field: MetadataField): Promise<SaveRefusal | undefined> {
    const row = fieldRow(field);
    // One statement, as a tag's save: a taken name selects no row to write, and a stored field of
    // another dataset or type is left as it is. Only when nothing was written, a read says why.
    const written = await this.db
      .insertInto("metadata_fields")
      .columns(["id", "dataset_id", "name", "type", "created_at", "position"])
      .expression(
        this.db
          .selectNoFrom([
            sql.val(row.id).as("id"),
            sql.val(row.dataset_id).as("dataset_id"),
            sql.val(row.name).as("name"),
            sql.val(row.type).as("type"),
            sql`cast(${row.created_at} as bigint)`.as("created_at"),
            nextPosition(this.db, field.datasetId).as("position"),
          ])
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom("metadata_fields")
                  .select("id")
                  .where("dataset_id", "=", row.dataset_id)
                  .where("name", "=", row.name)
                  .where("id", "<>", row.id),
              ),
            ),
          ),
      )
      .onConflict((conflict) =>
        conflict
          .column("id")
          .doUpdateSet(updateAllBut(row, "id"))
          .whereRef("metadata_fields.dataset_id", "=", "excluded.dataset_id")
          .whereRef("metadata_fields.type", "=", "excluded.type"),
      )
      .returning("id")
      .execute();
    if (written.length > 0) return undefined;
    const stored = await this.db
      .selectFrom("metadata_fields")
      .select(["dataset_id", "type"])
      .where("id", "=", field.id)
      .executeTakeFirst();
    if (stored && stored.dataset_id !== field.datasetId) return "owned_elsewhere";
    return stored && stored.type !== field.type ? "type_differs" : "name_taken";
  }

  async createField(field: MetadataField, servedTo?: string): Promise<boolean> {
    // One statement: the unique (dataset, name) constraint settles races, a taken name inserts nothing.
    const { id, datasetId, name, type, createdAt } = field;
    const insert = fieldWritesFor(servedTo).insert;
    try {
      return (await insert(this.db, id, datasetId, name, type, createdAt, servedTo)).length > 0;
    } catch (error) {
      // Its dataset deleted meanwhile: the insert saw it, its foreign key no longer does.
      if (this.features.isForeignKeyViolation(error)) return false;
      throw error;
    }
  }

  async findField(datasetId: string, fieldId: string): Promise<MetadataField | undefined> {
    const [row] = await fieldOfDataset(this.db, datasetId, fieldId);
    return row && fieldFromRow(row);
  }

  async renameField(
    datasetId: string,
    fieldId: string,
    name: string,
    servedTo?: string,
  ): Promise<Renamed<MetadataField>> {
    // Values are keyed by field id: one row changes, whatever the number of documents. The unique
    // (dataset, name) constraint refuses a taken name; no read first. Renames of one field commit
    // in turn: where it can, the row is let go before the commit's flush, which the answer awaits.
    const writes = fieldWritesFor(servedTo);
    try {
      if (!this.commitFlush) {
        const [row] = await writes.rename(this.db, datasetId, fieldId, name, servedTo);
        return row ? fieldFromRow(row) : "not_found";
      }
      const mark = this.commitFlush.mark();
      const [row] = await writes.renameUnflushed(this.features)(this.db, datasetId, fieldId, name, servedTo);
      if (!row) return "not_found";
      await this.#flushed(mark);
      return fieldFromRow(row);
    } catch (error) {
      if (this.features.isUniqueViolation(error)) return "name_taken";
      throw error;
    }
  }

  /**
   * Waits for the flush that makes an early-released commit durable. Failed, the commit may or may
   * not last: a store that cannot answer now (503), never a conflict that would run the write again.
   */
  async #flushed(mark: number): Promise<void> {
    try {
      await this.commitFlush!.wait(mark);
    } catch (error) {
      throw error instanceof StoreUnavailableError ? error : new StoreUnavailableError({ cause: error });
    }
  }

  async deleteField(datasetId: string, fieldId: string, servedTo?: string): Promise<boolean> {
    const deleted = await fieldWritesFor(servedTo).delete(this.features)(
      this.db,
      datasetId,
      fieldId,
      servedTo,
    );
    return deleted.length > 0;
  }

  async listFields(datasetId: string): Promise<MetadataField[]> {
    return (await fieldsOfDataset(this.db, datasetId)).map(fieldFromRow);
  }

  async listFieldsOf(datasetIds: readonly string[]): Promise<Map<string, MetadataField[]>> {
    const unique = [...new Set(datasetIds)];
    const fields = new Map<string, MetadataField[]>(unique.map((id) => [id, []]));
    if (unique.length === 0) return fields;
    for (const row of await fieldsOfDatasets(this.db, this.features, unique)) {
      fields.get(row.dataset_id)?.push(fieldFromRow(row));
    }
    return fields;
  }

  async setValue(documentId: string, fieldId: string, value: string): Promise<void> {
    await this.db
      .insertInto("document_metadata_values")
      .values({ document_id: documentId, field_id: fieldId, value })
      .onConflict((conflict) => conflict.columns(["document_id", "field_id"]).doUpdateSet({ value }))
      .execute();
  }

  async clearValue(documentId: string, fieldId: string): Promise<void> {
    await this.db
      .deleteFrom("document_metadata_values")
      .where("document_id", "=", documentId)
      .where("field_id", "=", fieldId)
      .execute();
  }

  async clearValues(documentId: string): Promise<void> {
    await this.db.deleteFrom("document_metadata_values").where("document_id", "=", documentId).execute();
  }

  async findForValueWrite(workspaceId: string, datasetId: string, documentIds: readonly string[]) {
    const unique = [...new Set(documentIds)];
    const [row] = (await datasetFieldsAndDocuments(
      this.db,
      this.features,
      unique,
      workspaceId,
      datasetId,
    )) as {
      field_rows: unknown;
      document_rows: unknown;
    }[];
    if (!row) return { dataset: undefined, fields: [], documentIds: [] };
    return {
      dataset: datasetFromPrefixed(row),
      fields: jsonRows<Parameters<typeof fieldFromRow>[0]>(row.field_rows).map(fieldFromRow),
      documentIds: jsonRows<{ id: string }>(row.document_rows).map((document) => document.id),
    };
  }

  async writeValues(datasetId: string, changes: readonly DocumentValueChanges[]): Promise<void> {
    if (changes.length > 0) await writeValues(this.db, this.features, datasetId, changes);
  }

  async valuesOf(documentId: string): Promise<MetadataEntry[]> {
    return (await valuesOfDocument(this.db, documentId)).map(entryFromRow);
  }

  async valuesOfDocuments(documentIds: readonly string[]): Promise<Map<string, MetadataEntry[]>> {
    const unique = [...new Set(documentIds)];
    const values = new Map<string, MetadataEntry[]>(unique.map((id) => [id, []]));
    if (unique.length === 0) return values;
    for (const row of await valuesOfDocuments(this.db, this.features, unique)) {
      values.get(row.document_id)?.push(entryFromRow(row));
    }
    return values;
  }

  async findFieldUsage(workspaceId: string, datasetId: string) {
    const [row] = await datasetWithFieldUsage(this.features)(this.db, workspaceId, datasetId);
    if (!row) return { dataset: undefined, documentCount: 0, fields: [] };
    return {
      dataset: datasetFromPrefixed(row),
      documentCount: Number(row.ds_document_count),
      fields: jsonRows<FieldUsageRow>(row.field_rows).map(usageFromRow),
    };
  }

  async listFieldUsage(datasetId: string): Promise<MetadataFieldUsage[]> {
    // Counters kept by triggers, not a count over the values.
    return (await fieldUsage(this.features)(this.db, datasetId)).map(usageFromRow);
  }
}
