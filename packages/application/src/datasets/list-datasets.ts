import { isStorableText, offsetOf, type Page, type PageRequest, pageOf } from "@service-api/domain";
import type { DatasetRepository } from "@service-api/ports";
import type { DatasetView } from "./dataset-view.js";

export interface ListDatasetsInput {
  workspaceId: string;
  page: PageRequest;
  /** A substring of the name; undefined for every dataset. */
  keyword?: string;
  /** Only datasets bound to every one of these knowledge tags. */
  tagIds?: readonly string[];
}

/** List Datasets: the workspace's datasets, newest first, `enable_api` false too. */
export class ListDatasets {
  constructor(private readonly datasets: DatasetRepository) {}

  async execute(input: ListDatasetsInput): Promise<Page<DatasetView>> {
    // Text no store can hold is in no name.
    if (input.keyword !== undefined && !isStorableText(input.keyword)) return pageOf([], 0, input.page);
    const { items, total } = await this.datasets.listPage(
      input.workspaceId,
      { keyword: input.keyword, tagIds: input.tagIds },
      offsetOf(input.page),
      input.page.limit,
    );
    return pageOf(items, total, input.page);
  }
}
