import {
  builtInEntries,
  type Dataset,
  type DisplayStatus,
  isStorableText,
  type MetadataEntry,
  offsetOf,
  type Page,
  type PageRequest,
  pageOf,
} from "@service-api/domain";
import type { DocumentListing, DocumentRepository, MetadataRepository } from "@service-api/ports";

export interface ListDocumentsInput {
  dataset: Dataset;
  page: PageRequest;
  /** A substring of the name; undefined for every document. */
  keyword?: string;
  /** Only documents of this display status. */
  status?: DisplayStatus;
}

/** A document of the list, with its metadata as Get Document shows it. */
export interface DocumentListItem extends DocumentListing {
  metadata: MetadataEntry[];
}

/** List Documents: a page of the dataset's documents, newest first, read per page, not per item. */
export class ListDocuments {
  constructor(
    private readonly documents: DocumentRepository,
    private readonly metadata: MetadataRepository,
  ) {}

  async execute({ dataset, page, keyword, status }: ListDocumentsInput): Promise<Page<DocumentListItem>> {
    // Text no store can hold is in no name.
    if (keyword !== undefined && !isStorableText(keyword)) return pageOf([], 0, page);
    const { items, total } = await this.documents.listPage(
      dataset.id,
      { keyword, status },
      offsetOf(page),
      page.limit,
    );
    const values = await this.metadata.valuesOfDocuments(items.map((item) => item.document.id));
    const listed = items.map((item) => {
      const custom = values.get(item.document.id) ?? [];
      const metadata = dataset.builtInFieldEnabled
        ? [...custom, ...builtInEntries(item.document, item.creatorName)]
        : custom;
      return { ...item, metadata };
    });
    return pageOf(listed, total, page);
  }
}
