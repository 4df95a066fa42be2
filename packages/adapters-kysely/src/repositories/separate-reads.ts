import type { DatasetOverview, Repositories } from "@service-api/ports";
import type { KyselyDatasetRepository } from "./kysely-dataset-repository.js";

/**
 * Where a statement costs no round trip (`SqlFeatures.gathersReads` false: SQLite, in process), the
 * reads that gather several tables' rows for one request go as the separate single-table statements
 * instead. SQLite runs a join of several tables' rows slower than the statements apart: joined ÷
 * separate 0.26–0.61 at 1k documents (`pnpm --filter @service-api/bench joined-reads`). Same
 * answers: the contract tests run both ways, one per store. Each repository keeps its own methods;
 * only these are replaced on the instances. The dataset overviews' tags and fields and the listed
 * documents' values, which PostgreSQL reads as JSON arrays in the row, come from their own reads.
 */
export function readSeparately({
  datasets,
  documents,
  metadata,
  tags,
  conversations,
  endUsers,
  workspaces,
}: Repositories & { datasets: KyselyDatasetRepository }): void {
  documents.findDetail = async (workspaceId, datasetId, documentId) => {
    const dataset = await datasets.findInWorkspace(workspaceId, datasetId);
    const document = dataset && (await documents.findInDataset(datasetId, documentId));
    if (!document) return { dataset, detail: undefined };
    const uploadFile = document.uploadFileId
      ? await documents.findUploadFile(document.uploadFileId)
      : undefined;
    const chunks = await documents.chunkStats(documentId);
    const values = await metadata.valuesOf(documentId);
    const creator = document.createdBy && (await workspaces.findMember(workspaceId, document.createdBy));
    return {
      dataset,
      detail: { document, uploadFile, chunks, values, creatorName: creator ? creator.name : null },
    };
  };

  metadata.findFieldUsage = async (workspaceId, datasetId) => {
    const found = await datasets.findWithDocumentCount(workspaceId, datasetId);
    if (!found) return { dataset: undefined, documentCount: 0, fields: [] };
    return { ...found, fields: await metadata.listFieldUsage(datasetId) };
  };

  metadata.findForValueWrite = async (workspaceId, datasetId, documentIds) => {
    const dataset = await datasets.findInWorkspace(workspaceId, datasetId);
    if (!dataset) return { dataset, fields: [], documentIds: [] };
    const found = documentIds.length > 0 ? await documents.findManyInDataset(datasetId, documentIds) : [];
    return {
      dataset,
      fields: await metadata.listFields(datasetId),
      documentIds: found.map((document) => document.id),
    };
  };

  documents.findForStatusUpdate = async (workspaceId, datasetId, documentIds) => {
    const dataset = await datasets.findInWorkspace(workspaceId, datasetId);
    if (!dataset) return { dataset, documents: [], ownerId: null };
    return {
      dataset,
      documents: await documents.findManyInDataset(datasetId, documentIds),
      ownerId: (await workspaces.findOwner(workspaceId))?.id ?? null,
    };
  };

  tags.findBoundToDataset = async (workspaceId, datasetId) => {
    const dataset = await datasets.findInWorkspace(workspaceId, datasetId);
    if (!dataset) return { dataset, tags: [] };
    const bound = (await tags.boundTags([datasetId])).get(datasetId) ?? [];
    return { dataset, tags: bound.filter((tag) => tag.type === "knowledge") };
  };

  conversations.findForVariableUpdate = async (appId, sessionId, conversationId, variableId) => {
    const conversation = await conversations.findInApp(appId, conversationId);
    if (!conversation) return {};
    return {
      conversation,
      sessionUserId: sessionId === null ? undefined : (await endUsers.findBySessionId(appId, sessionId))?.id,
      variable:
        variableId === null ? undefined : await conversations.findVariable(conversationId, variableId),
    };
  };

  const overviewOf = datasets.findOverview.bind(datasets);
  const pageOfDatasets = datasets.listPage.bind(datasets);
  const labelled = async (overviews: DatasetOverview[]) => {
    const ids = overviews.map((overview) => overview.dataset.id);
    const bound = await tags.boundTags(ids);
    const fields = await metadata.listFieldsOf(ids);
    return overviews.map((overview) => ({
      ...overview,
      tags: (bound.get(overview.dataset.id) ?? []).filter((tag) => tag.type === "knowledge"),
      fields: fields.get(overview.dataset.id) ?? [],
    }));
  };
  datasets.findOverview = async (workspaceId, datasetId) => {
    const overview = await overviewOf(workspaceId, datasetId);
    return overview && (await labelled([overview]))[0];
  };
  datasets.listPage = async (...args) => {
    const page = await pageOfDatasets(...args);
    return { ...page, items: await labelled(page.items) };
  };

  const pageOfDocuments = documents.listPage.bind(documents);
  documents.listPage = async (...args) => {
    const page = await pageOfDocuments(...args);
    const values = await metadata.valuesOfDocuments(page.items.map((item) => item.document.id));
    return {
      ...page,
      items: page.items.map((item) => ({ ...item, values: values.get(item.document.id) ?? [] })),
    };
  };
  documents.findPage = async (workspaceId, datasetId, filter, offset, limit) => {
    const dataset = await datasets.findInWorkspace(workspaceId, datasetId);
    if (!dataset) return { dataset, items: [], total: 0 };
    return { dataset, ...(await documents.listPage(datasetId, filter, offset, limit)) };
  };
}
