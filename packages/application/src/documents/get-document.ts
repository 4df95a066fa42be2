import {
  applyMetadataView,
  builtInEntries,
  type DocumentView,
  documentDetail,
  ensureDatasetServesApi,
  NotFoundError,
  parseMetadataView,
} from "@service-api/domain";
import type {
  DatasetRepository,
  DocumentRepository,
  MetadataRepository,
  WorkspaceRepository,
} from "@service-api/ports";

export interface GetDocumentInput {
  workspaceId: string;
  datasetId: string;
  documentId: string;
  /** The raw `metadata` query value; absent means `all`. */
  metadata: string | undefined;
}

/** Get Document: one document of a dataset, in the requested metadata view. */
export class GetDocument {
  constructor(
    private readonly datasets: DatasetRepository,
    private readonly documents: DocumentRepository,
    private readonly metadata: MetadataRepository,
    private readonly workspaces: WorkspaceRepository,
  ) {}

  async execute(input: GetDocumentInput): Promise<DocumentView> {
    const dataset = ensureDatasetServesApi(
      await this.datasets.findInWorkspace(input.workspaceId, input.datasetId),
    );
    const document = await this.documents.findInDataset(dataset.id, input.documentId);
    if (!document) throw new NotFoundError("Document not found.");
    const view = parseMetadataView(input.metadata);

    const [uploadFile, chunks, custom] = await Promise.all([
      document.uploadFileId ? this.documents.findUploadFile(document.uploadFileId) : undefined,
      this.documents.chunkStats(document.id),
      this.metadata.valuesOf(document.id),
    ]);
    const metadata = dataset.builtInFieldEnabled
      ? [
          ...custom,
          ...builtInEntries(document, await this.#uploaderName(dataset.workspaceId, document.createdBy)),
        ]
      : custom;
    return applyMetadataView(documentDetail({ document, dataset, uploadFile, chunks, metadata }), view);
  }

  async #uploaderName(workspaceId: string, memberId: string): Promise<string | null> {
    return (await this.workspaces.findMember(workspaceId, memberId))?.name ?? null;
  }
}
