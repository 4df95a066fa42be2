import type { Dataset, MetadataEntry, MetadataField, MetadataFieldUsage } from "@service-api/domain";
import type { DocumentValueChanges, MetadataRepository } from "../../metadata-repository.js";
import type { ServedTo } from "../../served-to.js";
import type { Renamed, SaveRefusal } from "../../tag-repository.js";
import type { Snapshotting } from "./snapshotting.js";

/** Fields by creation time; a stable sort keeps ties in the order they were created (the map's). */
const inCreationOrder = (a: MetadataField, b: MetadataField) => a.createdAt - b.createdAt;

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

  #nameTaken(field: Pick<MetadataField, "id" | "datasetId" | "name">): boolean {
    return [...this.#fields.values()].some(
      (other) => other.id !== field.id && other.datasetId === field.datasetId && other.name === field.name,
    );
  }

  async saveField(field: MetadataField): Promise<SaveRefusal | undefined> {
    const stored = this.#fields.get(field.id);
    if (stored && stored.datasetId !== field.datasetId) return "owned_elsewhere";
    if (stored && stored.type !== field.type) return "type_differs";
    if (this.#nameTaken(field)) return "name_taken";
    this.#fields.set(field.id, structuredClone(field));
    return undefined;
  }

  /** Whether the write may go on: without `servedTo`, always; with it, while the dataset serves that workspace. */
  async #serves(datasetId: string, servedTo: ServedTo | undefined): Promise<boolean> {
    if (servedTo === undefined) return true;
    return (await this.datasetWithCount(servedTo, datasetId)).dataset?.enableApi === true;
  }

  async createField(field: MetadataField, servedTo?: ServedTo): Promise<boolean> {
    if (!(await this.#serves(field.datasetId, servedTo)) || this.#nameTaken(field)) return false;
    this.#fields.set(field.id, structuredClone(field));
    return true;
  }

  async findField(datasetId: string, fieldId: string): Promise<MetadataField | undefined> {
    const field = this.#fields.get(fieldId);
    return field?.datasetId === datasetId ? structuredClone(field) : undefined;
  }

  async renameField(
    datasetId: string,
    fieldId: string,
    name: string,
    servedTo?: ServedTo,
  ): Promise<Renamed<MetadataField>> {
    const field = this.#fields.get(fieldId);
    if (field?.datasetId !== datasetId || !(await this.#serves(datasetId, servedTo))) return "not_found";
    if (this.#nameTaken({ ...field, name })) return "name_taken";
    field.name = name;
    return structuredClone(field);
  }

  async deleteField(datasetId: string, fieldId: string, servedTo?: ServedTo): Promise<boolean> {
    if (this.#fields.get(fieldId)?.datasetId !== datasetId) return false;
    if (!(await this.#serves(datasetId, servedTo))) return false;
    for (const values of this.#values.values()) values.delete(fieldId);
    return this.#fields.delete(fieldId);
  }

  async listFields(datasetId: string): Promise<MetadataField[]> {
    return structuredClone(
      [...this.#fields.values()].filter((field) => field.datasetId === datasetId).sort(inCreationOrder),
    );
  }

  async listFieldsOf(datasetIds: readonly string[]): Promise<Map<string, MetadataField[]>> {
    return new Map(await Promise.all(datasetIds.map(async (id) => [id, await this.listFields(id)] as const)));
  }

  async setValue(documentId: string, fieldId: string, value: string): Promise<void> {
    const values = this.#values.get(documentId) ?? new Map<string, string>();
    values.set(fieldId, value);
    this.#values.set(documentId, values);
  }

  async clearValue(documentId: string, fieldId: string): Promise<void> {
    this.#values.get(documentId)?.delete(fieldId);
  }

  async clearValues(documentId: string): Promise<void> {
    this.#values.delete(documentId);
  }

  async valuesOf(documentId: string): Promise<MetadataEntry[]> {
    const values = this.#values.get(documentId) ?? new Map<string, string>();
    return [...this.#fields.values()]
      .filter((field) => values.has(field.id))
      .sort(inCreationOrder)
      .map(({ id, name, type }) => ({ id, name, type, value: values.get(id) ?? null }));
  }

  async valuesOfDocuments(documentIds: readonly string[]): Promise<Map<string, MetadataEntry[]>> {
    return new Map(await Promise.all(documentIds.map(async (id) => [id, await this.valuesOf(id)] as const)));
  }

  /** Set by the store: the dataset with its document count, which this repository does not hold. */
  datasetWithCount: (
    workspaceId: string,
    datasetId: string,
  ) => Promise<{ dataset: Dataset | undefined; documentCount: number }> = async () => ({
    dataset: undefined,
    documentCount: 0,
  });

  /** Set by the store: which of the ids are the dataset's documents, which this repository does not hold. */
  documentsOf: (datasetId: string, documentIds: readonly string[]) => Promise<string[]> = async () => [];

  async findForValueWrite(workspaceId: string, datasetId: string, documentIds: readonly string[]) {
    const { dataset } = await this.datasetWithCount(workspaceId, datasetId);
    if (!dataset) return { dataset, fields: [], documentIds: [] };
    return {
      dataset,
      fields: await this.listFields(datasetId),
      documentIds: await this.documentsOf(datasetId, documentIds),
    };
  }

  async writeValues(datasetId: string, changes: readonly DocumentValueChanges[]): Promise<void> {
    const documents = new Set(
      await this.documentsOf(
        datasetId,
        changes.map((change) => change.documentId),
      ),
    );
    const inDataset = (fieldId: string) => this.#fields.get(fieldId)?.datasetId === datasetId;
    for (const change of changes) {
      if (!documents.has(change.documentId)) continue;
      if (change.replaceAll) await this.clearValues(change.documentId);
      for (const fieldId of change.clear) await this.clearValue(change.documentId, fieldId);
      for (const [fieldId, value] of change.set)
        if (inDataset(fieldId)) await this.setValue(change.documentId, fieldId, value);
    }
  }

  async findFieldUsage(workspaceId: string, datasetId: string) {
    const { dataset, documentCount } = await this.datasetWithCount(workspaceId, datasetId);
    return { dataset, documentCount, fields: dataset ? await this.listFieldUsage(dataset.id) : [] };
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
