import { batchOf, CONVERSATION_COUNT, ids, KEYS, TAG_COUNT, userOf } from "./fixture.js";

/** The five of the service API: measured against the floor too. */
export const FLOORED = [
  "getDocument",
  "listMetadataFields",
  "getWebAppSettings",
  "updateConversationVariable",
  "bindTagsToDataset",
] as const;
/** The management operations measured: ours only, for their growth and errors. */
export const MANAGED = [
  "listDocuments",
  "getIndexingStatus",
  "listTags",
  "listConversationVariables",
  "getDataset",
  "setDocumentMetadata",
  "renameMetadataField",
  "createThenDeleteTag",
] as const;
export const OPERATION_NAMES = [...FLOORED, ...MANAGED] as const;
export type OperationName = (typeof OPERATION_NAMES)[number];
export type FlooredName = (typeof FLOORED)[number];
export const READS: OperationName[] = ["getDocument", "listMetadataFields", "getWebAppSettings"];
/** The operations that commit a write on every request. */
export const WRITES: OperationName[] = [
  "updateConversationVariable",
  "bindTagsToDataset",
  "setDocumentMetadata",
  "renameMetadataField",
  "createThenDeleteTag",
];
export const hasFloor = (name: OperationName): name is FlooredName =>
  (FLOORED as readonly string[]).includes(name);

type Method = "GET" | "PUT" | "POST" | "PATCH" | "DELETE";

export interface Operation {
  method: Method;
  key: string;
  /** A request of the operation, spread over the data set. */
  next(documents: number): { path: string; body?: string };
  /** The status every request must answer. */
  status: number;
  /** Every request is the same: the load generator builds it once instead of per request. */
  fixed?: boolean;
  /** A second request made from the first one's answer (each counts as a request). */
  followUp?: { method: Method; status: number; next(previousBody: string): { path: string; body?: string } };
}

const pick = (count: number) => Math.floor(Math.random() * count);
/** Names no earlier request of this process used. */
let named = 0;
const uniqueName = (prefix: string) => `${prefix}_${process.pid}_${++named}`;

export const OPERATIONS: Record<OperationName, Operation> = {
  getDocument: {
    method: "GET",
    key: KEYS.knowledge,
    status: 200,
    next: (documents) => ({
      path: `/v1/datasets/${ids.dataset}/documents/${ids.document(pick(documents))}?metadata=all`,
    }),
  },
  listMetadataFields: {
    method: "GET",
    key: KEYS.knowledge,
    status: 200,
    fixed: true,
    next: () => ({ path: `/v1/datasets/${ids.dataset}/metadata` }),
  },
  getWebAppSettings: {
    method: "GET",
    key: KEYS.app,
    status: 200,
    fixed: true,
    next: () => ({ path: "/v1/site" }),
  },
  updateConversationVariable: {
    method: "PUT",
    key: KEYS.app,
    status: 200,
    next: () => {
      const conversation = pick(CONVERSATION_COUNT);
      return {
        path: `/v1/conversations/${ids.conversation(conversation)}/variables/${ids.variable}`,
        body: JSON.stringify({ value: `coffee ${pick(1000)}`, user: userOf(conversation) }),
      };
    },
  },
  bindTagsToDataset: {
    method: "POST",
    key: KEYS.knowledge,
    status: 204,
    next: () => ({
      path: "/v1/datasets/tags/binding",
      body: JSON.stringify({
        tag_ids: [ids.tag(pick(TAG_COUNT)), ids.tag(pick(TAG_COUNT))],
        target_id: ids.dataset,
      }),
    }),
  },
  getIndexingStatus: {
    method: "GET",
    key: KEYS.knowledge,
    status: 200,
    next: (documents) => ({
      path: `/v1/datasets/${ids.dataset}/documents/${batchOf(pick(documents))}/indexing-status`,
    }),
  },
  listDocuments: {
    method: "GET",
    key: KEYS.knowledge,
    status: 200,
    fixed: true,
    next: () => ({ path: `/v1/datasets/${ids.dataset}/documents?page=1&limit=20` }),
  },
  listTags: {
    method: "GET",
    key: KEYS.knowledge,
    status: 200,
    fixed: true,
    next: () => ({ path: "/v1/datasets/tags" }),
  },
  listConversationVariables: {
    method: "GET",
    key: KEYS.app,
    status: 200,
    next: () => {
      const conversation = pick(CONVERSATION_COUNT);
      return {
        path: `/v1/conversations/${ids.conversation(conversation)}/variables?user=${userOf(conversation)}`,
      };
    },
  },
  getDataset: {
    method: "GET",
    key: KEYS.knowledge,
    status: 200,
    fixed: true,
    next: () => ({ path: `/v1/datasets/${ids.dataset}` }),
  },
  setDocumentMetadata: {
    method: "POST",
    key: KEYS.knowledge,
    status: 200,
    next: (documents) => ({
      path: `/v1/datasets/${ids.dataset}/documents/metadata`,
      body: JSON.stringify({
        operation_data: [
          {
            document_id: ids.document(pick(documents)),
            metadata_list: [
              { id: ids.field(1), name: "field_1", value: `value ${pick(1000)}` },
              { id: ids.field(4), name: "field_4", value: pick(1000) },
            ],
            // The document's other values stay, so the data set keeps its shape through the run.
            partial_update: true,
          },
        ],
      }),
    }),
  },
  renameMetadataField: {
    method: "PATCH",
    key: KEYS.knowledge,
    status: 200,
    next: () => ({
      path: `/v1/datasets/${ids.dataset}/metadata/${ids.field(0)}`,
      body: JSON.stringify({ name: uniqueName("field_0") }),
    }),
  },
  createThenDeleteTag: {
    method: "POST",
    key: KEYS.knowledge,
    status: 200,
    next: () => ({ path: "/v1/datasets/tags", body: JSON.stringify({ name: uniqueName("tag") }) }),
    followUp: {
      method: "DELETE",
      status: 204,
      next: (created) => ({
        path: "/v1/datasets/tags",
        body: JSON.stringify({ tag_id: (JSON.parse(created) as { id: string }).id }),
      }),
    },
  },
};
