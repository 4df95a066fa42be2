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
import type { DocumentListing, DocumentRepository } from "@service-api/ports";

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

/** List Documents: a page of the dataset's documents, newest first, with their values, in one read. */
export class ListDocuments {
  constructor(private readonly documents: DocumentRepository) {}

  async execute({ dataset, page, keyword, status }: ListDocumentsInput): Promise<Page<DocumentListItem>> {
    // Text no store can hold is in no name.
    if (keyword !== undefined && !isStorableText(keyword)) return pageOf([], 0, page);
    const { items, total } = await this.documents.listPage(
      dataset.id,
      { keyword, status },
      offsetOf(page),
      page.limit,
    );
    const listed = items.map((item) => {
      const metadata = dataset.builtInFieldEnabled
        ? [...item.values, ...builtInEntries(item.document, item.creatorName)]
        : item.values;
      return { ...item, metadata };
    });
    return pageOf(listed, total, page);
  }
}
