import type { MetadataEntry, MetadataField, MetadataFieldUsage } from "@service-api/domain";
import type { MetadataRepository } from "../../metadata-repository.js";
import { byCreation, type Snapshotting } from "./snapshotting.js";

export class InMemoryMetadataRepository implements MetadataRepository, Snapshotting {
  #fields = new Map<string, MetadataField>();
  /** documentId → fieldId → value */
  #values = new Map<string, Map<string, string>>();

  snapshot(): unknown {
    return structuredClone([this.#fields, this.#values]);
  }

  restore(snapshot: unknown): void {
    [this.#fields, this.#values] = snapshot as [Map<string, MetadataField>, Map<string, Map<string, string>>];
  }

  async saveField(field: MetadataField): Promise<void> {
    for (const other of this.#fields.values()) {
      if (other.id !== field.id && other.datasetId === field.datasetId && other.name === field.name) {
        throw new Error(`Duplicate metadata field name: ${field.name}`);
      }
    }
    this.#fields.set(field.id, structuredClone(field));
  }

  async listFields(datasetId: string): Promise<MetadataField[]> {
    return [...this.#fields.values()].filter((field) => field.datasetId === datasetId).sort(byCreation);
  }

  async setValue(documentId: string, fieldId: string, value: string): Promise<void> {
    const values = this.#values.get(documentId) ?? new Map<string, string>();
    values.set(fieldId, value);
    this.#values.set(documentId, values);
  }

  async valuesOf(documentId: string): Promise<MetadataEntry[]> {
    const values = this.#values.get(documentId) ?? new Map<string, string>();
    return [...this.#fields.values()]
      .filter((field) => values.has(field.id))
      .sort(byCreation)
      .map(({ id, name, type }) => ({ id, name, type, value: values.get(id) ?? null }));
  }

  async listFieldUsage(datasetId: string): Promise<MetadataFieldUsage[]> {
    const counts = new Map<string, number>();
    for (const values of this.#values.values()) {
      for (const fieldId of values.keys()) counts.set(fieldId, (counts.get(fieldId) ?? 0) + 1);
    }
    return (await this.listFields(datasetId)).map(({ id, name, type }) => ({
      id,
      name,
      type,
      count: counts.get(id) ?? 0,
    }));
  }
}
