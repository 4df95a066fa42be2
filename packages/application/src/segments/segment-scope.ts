import { type Document, lookupId, NotFoundError } from "@service-api/domain";
import type { DatasetRepository, DocumentRepository } from "@service-api/ports";
import { checkedDataset } from "../datasets/open-dataset.js";
import { DOCUMENT_NOT_FOUND } from "../documents/get-document-file.js";

export const SEGMENT_NOT_FOUND = "Segment not found.";

/** Where a chunks operation works: a document of a dataset of the workspace. */
export interface DocumentScope {
  workspaceId: string;
  datasetId: string;
  documentId: string;
}

/**
 * The document a chunks operation names, in Dify's preamble order: the dataset (404 "Dataset not
 * found.", 403), then the document (404 "Document not found.").
 */
export async function checkedDocument(
  datasets: DatasetRepository,
  documents: DocumentRepository,
  scope: DocumentScope,
): Promise<Document> {
  const dataset = await checkedDataset(datasets, scope);
  const document = await documents.findInDataset(dataset.id, lookupId(scope.documentId));
  if (!document) throw new NotFoundError(DOCUMENT_NOT_FOUND);
  return document;
}
