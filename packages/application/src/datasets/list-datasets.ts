import { isStorableText, offsetOf, type Page, type PageRequest, pageOf } from "@service-api/domain";
import type { Repositories } from "@service-api/ports";
import { type DatasetView, datasetViews } from "./dataset-view.js";

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
  constructor(private readonly repositories: Pick<Repositories, "datasets" | "tags" | "metadata">) {}

  async execute(input: ListDatasetsInput): Promise<Page<DatasetView>> {
    // Text no store can hold is in no name.
    if (input.keyword !== undefined && !isStorableText(input.keyword)) return pageOf([], 0, input.page);
    const { items, total } = await this.repositories.datasets.listPage(
      input.workspaceId,
      { keyword: input.keyword, tagIds: input.tagIds },
      offsetOf(input.page),
      input.page.limit,
    );
    return pageOf(await datasetViews(items, this.repositories), total, input.page);
  }
}
