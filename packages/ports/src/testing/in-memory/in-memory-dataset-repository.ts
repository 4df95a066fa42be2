import { type Dataset, matchesTextFilter } from "@service-api/domain";
import type {
  DatasetChanges,
  DatasetFilter,
  DatasetOverview,
  DatasetRepository,
} from "../../dataset-repository.js";
import type { ServedTo } from "../../served-to.js";
import type { InMemoryDocumentRepository } from "./in-memory-document-repository.js";
import type { InMemoryMetadataRepository } from "./in-memory-metadata-repository.js";
import type { InMemoryTagRepository } from "./in-memory-tag-repository.js";
import type { InMemoryWorkspaceRepository } from "./in-memory-workspace-repository.js";
import { byCreation, byText, type Snapshotting } from "./snapshotting.js";

export class InMemoryDatasetRepository implements DatasetRepository, Snapshotting {
  #datasets = new Map<string, Dataset>();
  /** Deleted datasets, until purged: out of every workspace's reads. */
  #trash = new Map<string, Dataset>();

  constructor(
    private readonly documents: InMemoryDocumentRepository,
    private readonly workspaces: InMemoryWorkspaceRepository,
    private readonly tags: InMemoryTagRepository,
    private readonly metadata: InMemoryMetadataRepository,
  ) {}

  snapshot(): unknown {
    return structuredClone({ datasets: this.#datasets, trash: this.#trash });
  }

  restore(snapshot: unknown): void {
    ({ datasets: this.#datasets, trash: this.#trash } = snapshot as {
      datasets: Map<string, Dataset>;
      trash: Map<string, Dataset>;
    });
  }

  #nameTaken(workspaceId: string, name: string, exceptId: string): boolean {
    return [...this.#datasets.values()].some(
      (other) => other.workspaceId === workspaceId && other.name === name && other.id !== exceptId,
    );
  }

  async #overview(dataset: Dataset): Promise<DatasetOverview> {
    const first = this.documents.firstOf(dataset.id);
    const bound = (await this.tags.boundTags([dataset.id])).get(dataset.id) ?? [];
    return {
      dataset: structuredClone(dataset),
      counts: this.documents.countsOf(dataset.id),
      firstDocument: first && { dataSourceType: first.dataSourceType, docForm: first.docForm },
      authorName: this.workspaces.memberName(dataset.createdBy),
      tags: bound.filter((tag) => tag.type === "knowledge"),
      fields: await this.metadata.listFields(dataset.id),
    };
  }

  async listInWorkspace(workspaceId: string): Promise<Dataset[]> {
    const datasets = [...this.#datasets.values()].filter((dataset) => dataset.workspaceId === workspaceId);
    return structuredClone(datasets.sort(byCreation));
  }

  async save(dataset: Dataset): Promise<"owned_elsewhere" | "name_taken" | undefined> {
    const stored = this.#datasets.get(dataset.id) ?? this.#trash.get(dataset.id);
    if (stored && stored.workspaceId !== dataset.workspaceId) return "owned_elsewhere";
    if (this.#nameTaken(dataset.workspaceId, dataset.name, dataset.id)) return "name_taken";
    this.#datasets.set(dataset.id, structuredClone(dataset));
    return undefined;
  }

  async create(dataset: Dataset): Promise<boolean> {
    if (this.#datasets.has(dataset.id) || this.#trash.has(dataset.id)) return false;
    if (this.#nameTaken(dataset.workspaceId, dataset.name, dataset.id)) return false;
    this.#datasets.set(dataset.id, structuredClone(dataset));
    return true;
  }

  async update(
    workspaceId: string,
    datasetId: string,
    changes: DatasetChanges,
  ): Promise<Dataset | "not_found" | "name_taken"> {
    const dataset = this.#datasets.get(datasetId);
    if (dataset?.workspaceId !== workspaceId) return "not_found";
    if (changes.name !== undefined && this.#nameTaken(workspaceId, changes.name, datasetId))
      return "name_taken";
    const defined = Object.entries(changes).filter(([, value]) => value !== undefined);
    Object.assign(dataset, structuredClone(Object.fromEntries(defined)));
    return structuredClone(dataset);
  }

  async moveToTrash(workspaceId: string, datasetId: string): Promise<boolean> {
    const dataset = this.#datasets.get(datasetId);
    if (dataset?.workspaceId !== workspaceId) return false;
    this.#datasets.delete(datasetId);
    this.#trash.set(datasetId, dataset);
    await this.tags.unbindAll(datasetId);
    return true;
  }

  async purgeTrashed(datasetId: string, batch: number): Promise<"more" | "done"> {
    if (!this.#trash.has(datasetId)) return "done";
    const left = (await this.documents.listInDataset(datasetId)).slice(0, Math.max(1, batch));
    for (const document of left)
      await this.documents.delete(datasetId, document.id, { archived: document.archived });
    if (left.length > 0) return "more";
    for (const field of await this.metadata.listFields(datasetId))
      await this.metadata.deleteField(datasetId, field.id);
    this.#trash.delete(datasetId);
    return "done";
  }

  async findProcessRuleHolders(ruleIds: readonly string[]): Promise<Map<string, string[]>> {
    const asked = new Set(ruleIds);
    const holders = new Map<string, Set<string>>();
    const rules = [
      ...[...this.#datasets.values()].map((dataset) => [dataset.processRule?.id, dataset.id] as const),
      ...this.documents.processRules(),
    ];
    for (const [ruleId, datasetId] of rules) {
      if (ruleId === undefined || !asked.has(ruleId)) continue;
      holders.set(ruleId, (holders.get(ruleId) ?? new Set()).add(datasetId));
    }
    return new Map([...holders].map(([ruleId, datasetIds]) => [ruleId, [...datasetIds]]));
  }

  async findInWorkspace(workspaceId: string, datasetId: string): Promise<Dataset | undefined> {
    const dataset = this.#datasets.get(datasetId);
    return dataset?.workspaceId === workspaceId ? structuredClone(dataset) : undefined;
  }

  async findOverview(workspaceId: string, datasetId: string): Promise<DatasetOverview | undefined> {
    const dataset = this.#datasets.get(datasetId);
    return dataset?.workspaceId === workspaceId ? this.#overview(dataset) : undefined;
  }

  async listPage(
    workspaceId: string,
    filter: DatasetFilter,
    offset: number,
    limit: number,
  ): Promise<{ items: DatasetOverview[]; total: number }> {
    const wanted = [...new Set(filter.tagIds ?? [])];
    const knowledge = new Set(
      (await this.tags.findByIds(wanted))
        .filter((tag) => tag.workspaceId === workspaceId && tag.type === "knowledge")
        .map((tag) => tag.id),
    );
    const candidates = [...this.#datasets.values()].filter((dataset) => dataset.workspaceId === workspaceId);
    const matching: Dataset[] = [];
    for (const dataset of candidates) {
      if (filter.keyword !== undefined && !matchesTextFilter(dataset.name, filter.keyword)) continue;
      const bound = new Set(await this.tags.boundTagIds(dataset.id));
      if (!wanted.every((tagId) => knowledge.has(tagId) && bound.has(tagId))) continue;
      matching.push(dataset);
    }
    matching.sort((a, b) => b.createdAt - a.createdAt || byText(a.id, b.id));
    return {
      items: await Promise.all(
        matching.slice(offset, offset + limit).map((dataset) => this.#overview(dataset)),
      ),
      total: matching.length,
    };
  }

  async setBuiltInFieldEnabled(
    datasetId: string,
    enabled: boolean,
    updatedAt: number,
    servedTo?: ServedTo,
  ): Promise<"changed" | "unchanged" | "refused"> {
    const dataset = this.#datasets.get(datasetId);
    if (!dataset) return "refused";
    if (servedTo !== undefined && (dataset.workspaceId !== servedTo || !dataset.enableApi)) return "refused";
    if (dataset.builtInFieldEnabled === enabled) return "unchanged";
    dataset.builtInFieldEnabled = enabled;
    dataset.updatedAt = updatedAt;
    return "changed";
  }

  async lockForUpdate(): Promise<void> {}
}
