import {
  ECONOMY_RETRIEVAL_MODEL,
  InvalidParamError,
  isStorableText,
  type RetrievalModel,
  UNSTORABLE_TEXT,
} from "@service-api/domain";

export const QUERY_REQUIRED = "Query or attachment_ids is required";
export const QUERY_TOO_LONG = "Query cannot exceed 250 characters";
export const QUERY_MAX_LENGTH = 250;
export const ATTACHMENT_QUERIES_UNSUPPORTED = "attachment_ids: image queries are not supported here.";

/**
 * The query, as Dify's `hit_testing_args_check` takes it: text of 1 to 250 characters (code
 * points: 250 emoji pass). Text no store holds is refused, never searched.
 */
export function checkedQuery(query: unknown, attachmentIds: unknown): string {
  if (attachmentIds !== undefined && attachmentIds !== null) {
    if (!Array.isArray(attachmentIds))
      throw new InvalidParamError("attachment_ids", "attachment_ids: must be a list.");
    if (attachmentIds.length > 0)
      throw new InvalidParamError("attachment_ids", ATTACHMENT_QUERIES_UNSUPPORTED);
  }
  if (query !== undefined && query !== null && typeof query !== "string")
    throw new InvalidParamError("query", "query: must be a string.");
  if (!query) throw new InvalidParamError("query", QUERY_REQUIRED);
  if ([...query].length > QUERY_MAX_LENGTH) throw new InvalidParamError("query", QUERY_TOO_LONG);
  if (!isStorableText(query)) throw new InvalidParamError("query", `query: ${UNSTORABLE_TEXT}`);
  return query;
}

/**
 * The model a retrieval runs with: the request's, else the dataset's stored one, else (Dify's
 * `semantic_search` default needs a model) keyword search of the top 4.
 */
export function effectiveModel(requested: RetrievalModel | null | undefined, stored: RetrievalModel | null) {
  return requested ?? stored ?? { ...ECONOMY_RETRIEVAL_MODEL, top_k: 4, score_threshold: null };
}
