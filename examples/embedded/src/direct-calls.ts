import { openServiceApi } from "@service-api/http";

/**
 * Reads a document without HTTP, as a background job of the host service might: the same
 * authentication and use case the API route runs, called directly.
 */
export async function readDocumentTitleAndMetadata(
  databaseUrl: string,
  key: string,
  datasetId: string,
  documentId: string,
) {
  const api = await openServiceApi({ databaseUrl });
  try {
    const { workspaceId } = await api.authenticate.forWorkspace(key);
    const result = await api.getDocument.execute({ workspaceId, datasetId, documentId, metadata: "all" });
    if (result.view !== "all") throw new Error("asked for every field");
    return {
      name: result.document.name,
      metadata: Object.fromEntries(result.document.docMetadata.map((entry) => [entry.name, entry.value])),
    };
  } finally {
    await api.close();
  }
}

/**
 * Tags a knowledge base without HTTP: creates a knowledge tag, binds it, and reads the workspace's
 * tags back with their binding counts, through the use cases the management routes run.
 */
export async function tagDataset(databaseUrl: string, key: string, datasetId: string, tagName: string) {
  const api = await openServiceApi({ databaseUrl });
  try {
    const { workspaceId } = await api.authenticate.forWorkspace(key);
    const tag = await api.tags.createKnowledgeTag.execute({ workspaceId, name: tagName });
    await api.tags.bindTagsToDataset.execute({ workspaceId, tagIds: [tag.id], targetId: datasetId });
    const tags = await api.tags.listKnowledgeTags.execute({ workspaceId });
    return tags.map(({ name, bindingCount }) => ({ name, bindingCount }));
  } finally {
    await api.close();
  }
}
