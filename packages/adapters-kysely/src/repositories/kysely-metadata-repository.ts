import type {
  MetadataEntry,
  MetadataField,
  MetadataFieldType,
  MetadataFieldUsage,
} from "@service-api/domain";
import type { MetadataRepository } from "@service-api/ports";
import type { Kysely } from "kysely";
import { compiledRead } from "../compiled-read.js";
import type { DatabaseSchema } from "../schema.js";
import { updateAllBut } from "./rows.js";

const fieldsOfDataset = compiledRead((db, datasetId: string) =>
  db
    .selectFrom("metadata_fields")
    .selectAll()
    .where("dataset_id", "=", datasetId)
    .orderBy("created_at")
    .orderBy("id"),
);
const valuesOfDocument = compiledRead((db, documentId: string) =>
  db
    .selectFrom("document_metadata_values as value")
    .innerJoin("metadata_fields as field", "field.id", "value.field_id")
    .select(["field.id", "field.name", "field.type", "value.value"])
    .where("value.document_id", "=", documentId)
    .orderBy("field.created_at")
    .orderBy("field.id"),
);
const fieldUsage = compiledRead((db, datasetId: string) =>
  db
    .selectFrom("metadata_fields")
    .select(["id", "name", "type", "document_count"])
    .where("dataset_id", "=", datasetId)
    .orderBy("created_at")
    .orderBy("id"),
);

export class KyselyMetadataRepository implements MetadataRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  async saveField(field: MetadataField): Promise<void> {
    const row = {
      id: field.id,
      dataset_id: field.datasetId,
      name: field.name,
      type: field.type,
      created_at: field.createdAt,
    };
    await this.db
      .insertInto("metadata_fields")
      .values(row)
      .onConflict((conflict) => conflict.column("id").doUpdateSet(updateAllBut(row, "id")))
      .execute();
  }

  async listFields(datasetId: string): Promise<MetadataField[]> {
    const rows = await fieldsOfDataset(this.db, datasetId);
    return rows.map((row) => ({
      id: row.id,
      datasetId: row.dataset_id,
      name: row.name,
      type: row.type as MetadataFieldType,
      createdAt: row.created_at,
    }));
  }

  async setValue(documentId: string, fieldId: string, value: string): Promise<void> {
    await this.db
      .insertInto("document_metadata_values")
      .values({ document_id: documentId, field_id: fieldId, value })
      .onConflict((conflict) => conflict.columns(["document_id", "field_id"]).doUpdateSet({ value }))
      .execute();
  }

  async valuesOf(documentId: string): Promise<MetadataEntry[]> {
    const rows = await valuesOfDocument(this.db, documentId);
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      type: row.type as MetadataFieldType,
      value: row.value,
    }));
  }

  async listFieldUsage(datasetId: string): Promise<MetadataFieldUsage[]> {
    // Counters kept by triggers, not a count over the values.
    const rows = await fieldUsage(this.db, datasetId);
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      type: row.type as MetadataFieldType,
      count: Number(row.document_count),
    }));
  }
}
