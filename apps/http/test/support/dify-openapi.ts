/** The operations we serve that Dify's published document has, by Dify's operationId. */
export const OPERATIONS = {
  getDocumentDetail: ["get", "/datasets/{dataset_id}/documents/{document_id}"],
  updateChatConversationVariable: ["put", "/conversations/{conversation_id}/variables/{variable_id}"],
  bindTagsToDataset: ["post", "/datasets/tags/binding"],
  listMetadataFields: ["get", "/datasets/{dataset_id}/metadata"],
  getChatWebAppSettings: ["get", "/site"],
  getKnowledgeTags: ["get", "/datasets/tags"],
  createKnowledgeTag: ["post", "/datasets/tags"],
  updateKnowledgeTag: ["patch", "/datasets/tags"],
  deleteKnowledgeTag: ["delete", "/datasets/tags"],
  unbindTagFromDataset: ["post", "/datasets/tags/unbinding"],
  queryDatasetTags: ["get", "/datasets/{dataset_id}/tags"],
  createMetadataField: ["post", "/datasets/{dataset_id}/metadata"],
  updateMetadataField: ["patch", "/datasets/{dataset_id}/metadata/{metadata_id}"],
  deleteMetadataField: ["delete", "/datasets/{dataset_id}/metadata/{metadata_id}"],
  getBuiltInMetadataFields: ["get", "/datasets/{dataset_id}/metadata/built-in"],
  toggleBuiltInMetadataField: ["post", "/datasets/{dataset_id}/metadata/built-in/{action}"],
  batchUpdateDocumentMetadata: ["post", "/datasets/{dataset_id}/documents/metadata"],
  getConversationVariables: ["get", "/conversations/{conversation_id}/variables"],
  listDocuments: ["get", "/datasets/{dataset_id}/documents"],
  deleteDocument: ["delete", "/datasets/{dataset_id}/documents/{document_id}"],
  batchUpdateDocumentStatus: ["patch", "/datasets/{dataset_id}/documents/status/{action}"],
  listDatasets: ["get", "/datasets"],
  getDatasetDetail: ["get", "/datasets/{dataset_id}"],
  getChatAppInfo: ["get", "/info"],
  getChatAppMeta: ["get", "/meta"],
  createDocumentFromText: ["post", "/datasets/{dataset_id}/document/create-by-text"],
  updateDocumentByText: ["post", "/datasets/{dataset_id}/documents/{document_id}/update-by-text"],
  createDocumentFromFile: ["post", "/datasets/{dataset_id}/document/create-by-file"],
  updateDocument: ["patch", "/datasets/{dataset_id}/documents/{document_id}"],
  updateDocumentByFile: ["post", "/datasets/{dataset_id}/documents/{document_id}/update-by-file"],
  downloadDocument: ["get", "/datasets/{dataset_id}/documents/{document_id}/download"],
} as const;
export type OperationId = keyof typeof OPERATIONS;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Spec = { paths: Record<string, Record<string, Json>>; components: { schemas: Record<string, Json> } };

/** Replaces every `$ref` to a component schema with the schema itself, recursively. */
function inline(schema: Json, components: Record<string, Json>): Json {
  if (Array.isArray(schema)) return schema.map((item) => inline(item, components));
  if (schema === null || typeof schema !== "object") return schema;
  const ref = schema.$ref;
  if (typeof ref === "string")
    return inline(components[ref.replace("#/components/schemas/", "")] ?? {}, components);
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, inline(value, components)]));
}

/**
 * From the whole published document, each operation's success response schema (refs inlined), its
 * success status, and its request body schema. This is what `dify-openapi-5ops.json` holds.
 */
export function extractOperations(spec: Spec) {
  return Object.fromEntries(
    Object.entries(OPERATIONS).map(([operationId, [method, path]]) => {
      const operation = spec.paths[path]?.[method] as {
        operationId: string;
        responses: Record<string, Json>;
      };
      if (operation?.operationId !== operationId)
        throw new Error(`${operationId} is not at ${method} ${path}`);
      const [status, response] = Object.entries(operation.responses).find(([code]) => code.startsWith("2"))!;
      const content = (response as { content?: Record<string, { schema: Json }> }).content;
      const schema = content?.["application/json"]?.schema ?? null;
      return [
        operationId,
        { method, path, status: Number(status), schema: inline(schema, spec.components.schemas) },
      ];
    }),
  );
}
