import {
  ensurePageRequest,
  isPossibleId,
  isStorableText,
  offsetOf,
  type Page,
  type PageRequest,
  pageOf,
} from "@service-api/domain";
import type { DatasetRepository } from "@service-api/ports";
import { ensureInput, ensureList, ensureOptionalText } from "../input-checks.js";
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
    ensureInput(input);
    const page = ensurePageRequest(input.page);
    const { workspaceId, keyword, tagIds } = input;
    ensureOptionalText(keyword, "keyword");
    if (tagIds !== undefined) ensureList(tagIds, "tag_ids");
    // Text no store can hold is in no name; an id that can name nothing is no tag of a dataset, nor a workspace.
    const matchesNothing =
      !isPossibleId(workspaceId) ||
      (keyword !== undefined && !isStorableText(keyword)) ||
      (tagIds !== undefined && !tagIds.every(isPossibleId));
    if (matchesNothing) return pageOf([], 0, page);
    const { items, total } = await this.datasets.listPage(
      workspaceId,
      { keyword, tagIds },
      offsetOf(page),
      page.limit,
    );
    return pageOf(items, total, page);
  }
}
