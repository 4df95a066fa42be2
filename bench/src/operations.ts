import { CONVERSATION_COUNT, ids, KEYS, TAG_COUNT, userOf } from "./fixture.js";

export const OPERATION_NAMES = [
  "getDocument",
  "listMetadataFields",
  "getWebAppSettings",
  "updateConversationVariable",
  "bindTagsToDataset",
] as const;
export type OperationName = (typeof OPERATION_NAMES)[number];
export const READS: OperationName[] = ["getDocument", "listMetadataFields", "getWebAppSettings"];

export interface Operation {
  method: "GET" | "PUT" | "POST";
  key: string;
  /** A request of the operation, spread over the data set. */
  next(documents: number): { path: string; body?: string };
  /** The status every request must answer. */
  status: number;
  /** Every request is the same: the load generator builds it once instead of per request. */
  fixed?: boolean;
}

const pick = (count: number) => Math.floor(Math.random() * count);

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
};
