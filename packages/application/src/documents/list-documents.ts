import {
  builtInEntries,
  type DisplayStatus,
  ensureDatasetServesApi,
  ensurePageRequest,
  isStorableText,
  type MetadataEntry,
  offsetOf,
  type Page,
  type PageRequest,
  pageOf,
  parseDisplayStatusFilter,
} from "@service-api/domain";
import type { DatasetRepository, DocumentListing, DocumentRepository } from "@service-api/ports";
import { ensureDatasetScope } from "../datasets/open-dataset.js";
import { ensureInput, ensureOptionalText } from "../input-checks.js";

export interface ListDocumentsInput {
  workspaceId: string;
  datasetId: string;
  page: PageRequest;
  /** A substring of the name; undefined for every document. */
  keyword?: string;
  /** Only documents of this display status (read as the query's `status` is: `active` is `available`). */
  status?: DisplayStatus;
}

/** A document of the list, with its metadata as Get Document shows it. */
export interface DocumentListItem extends DocumentListing {
  metadata: MetadataEntry[];
}

/**
 * List Documents: a page of the dataset's documents, newest first, with their values, read with
 * the dataset in one read. The dataset must serve the API (404, 403), checked after the query.
 */
export class ListDocuments {
  constructor(
    private readonly documents: DocumentRepository,
    private readonly datasets: DatasetRepository,
  ) {}

  async execute(input: ListDocumentsInput): Promise<Page<DocumentListItem>> {
    ensureInput(input);
    const page = ensurePageRequest(input.page);
    const { workspaceId, datasetId, keyword } = input;
    ensureOptionalText(keyword, "keyword");
    const status = parseDisplayStatusFilter(input.status);
    ensureDatasetScope(input);
    // Text no store can hold is in no name: only the dataset is read.
    if (keyword !== undefined && !isStorableText(keyword)) {
      ensureDatasetServesApi(await this.datasets.findInWorkspace(workspaceId, datasetId));
      return pageOf([], 0, page);
    }
    const found = await this.documents.findPage(
      workspaceId,
      datasetId,
      { keyword, status },
      offsetOf(page),
      page.limit,
    );
    const dataset = ensureDatasetServesApi(found.dataset);
    const listed = found.items.map((item) => {
      const metadata = dataset.builtInFieldEnabled
        ? [...item.values, ...builtInEntries(item.document, item.creatorName)]
        : item.values;
      return { ...item, metadata };
    });
    return pageOf(listed, found.total, page);
  }
}
