import { type Dataset, matchesTextFilter } from "@service-api/domain";
import type { DatasetFilter, DatasetOverview, DatasetRepository } from "../../dataset-repository.js";
import type { ServedTo } from "../../served-to.js";
import type { InMemoryDocumentRepository } from "./in-memory-document-repository.js";
import type { InMemoryMetadataRepository } from "./in-memory-metadata-repository.js";
import type { InMemoryTagRepository } from "./in-memory-tag-repository.js";
import type { InMemoryWorkspaceRepository } from "./in-memory-workspace-repository.js";
import { byCreation, byText, type Snapshotting } from "./snapshotting.js";

export class InMemoryDatasetRepository implements DatasetRepository, Snapshotting {
  #datasets = new Map<string, Dataset>();

  constructor(
    private readonly documents: InMemoryDocumentRepository,
    private readonly workspaces: InMemoryWorkspaceRepository,
    private readonly tags: InMemoryTagRepository,
    private readonly metadata: InMemoryMetadataRepository,
  ) {}

  snapshot(): unknown {
    return structuredClone(this.#datasets);
  }

  restore(snapshot: unknown): void {
    this.#datasets = snapshot as Map<string, Dataset>;
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

  async save(dataset: Dataset): Promise<"owned_elsewhere" | undefined> {
    const stored = this.#datasets.get(dataset.id);
    if (stored && stored.workspaceId !== dataset.workspaceId) return "owned_elsewhere";
    this.#datasets.set(dataset.id, structuredClone(dataset));
    return undefined;
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
