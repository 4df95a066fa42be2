import {
  applyMetadataView,
  builtInEntries,
  type DocumentView,
  documentDetail,
  ensureDatasetServesApi,
  lookupId,
  NotFoundError,
  parseMetadataView,
} from "@service-api/domain";
import type { DocumentRepository } from "@service-api/ports";
import { ensureDatasetScope } from "../datasets/open-dataset.js";
import { ensureInput } from "../input-checks.js";

export interface GetDocumentInput {
  workspaceId: string;
  datasetId: string;
  documentId: string;
  /** The raw `metadata` query value; absent means `all`. */
  metadata: string | undefined;
}

/** Get Document: one document of a dataset, in the requested metadata view, from one read. */
export class GetDocument {
  constructor(private readonly documents: DocumentRepository) {}

  async execute(input: GetDocumentInput): Promise<DocumentView> {
    ensureInput(input);
    ensureDatasetScope(input);
    const found = await this.documents.findDetail(
      input.workspaceId,
      input.datasetId,
      lookupId(input.documentId),
    );
    const dataset = ensureDatasetServesApi(found.dataset);
    if (!found.detail) throw new NotFoundError("Document not found.");
    const view = parseMetadataView(input.metadata);
    const { document, uploadFile, chunks, values, creatorName } = found.detail;
    const metadata = dataset.builtInFieldEnabled
      ? [...values, ...builtInEntries(document, creatorName)]
      : values;
    return applyMetadataView(documentDetail({ document, dataset, uploadFile, chunks, metadata }), view);
  }
}
