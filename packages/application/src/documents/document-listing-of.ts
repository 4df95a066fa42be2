import { builtInEntries, type Dataset, type Document } from "@service-api/domain";
import type { Repositories } from "@service-api/ports";
import type { DocumentListItem } from "./list-documents.js";

/** A document as the list shows it, read after a write that queued it (Dify answers the list item). */
export async function documentListingOf(
  repositories: Repositories,
  dataset: Dataset,
  document: Document,
): Promise<DocumentListItem> {
  const { documents, metadata, workspaces } = repositories;
  const [uploadFile, stats, values, creator] = await Promise.all([
    document.uploadFileId ? documents.findUploadFile(document.uploadFileId) : undefined,
    documents.chunkStats(document.id),
    metadata.valuesOf(document.id),
    workspaces.findMember(dataset.workspaceId, document.createdBy),
  ]);
  const creatorName = creator?.name ?? null;
  const listed = { document, uploadFile, hitCount: stats.hitCount, creatorName, values };
  return {
    ...listed,
    metadata: dataset.builtInFieldEnabled ? [...values, ...builtInEntries(document, creatorName)] : values,
  };
}
