import { ProviderNotInitializeError } from "./errors.js";

export const SEARCH_METHODS = [
  "keyword_search",
  "semantic_search",
  "full_text_search",
  "hybrid_search",
] as const;
export type SearchMethod = (typeof SEARCH_METHODS)[number];

/**
 * How a dataset is searched, in Dify's JSON shape (as requests send it, as stored and shown in
 * `retrieval_model_dict`). `weights` and the filter conditions are kept as given.
 */
export interface RetrievalModel {
  search_method: SearchMethod;
  reranking_enable: boolean;
  reranking_model: { reranking_provider_name: string; reranking_model_name: string };
  reranking_mode: string | null;
  top_k: number;
  score_threshold_enabled: boolean;
  score_threshold: number | null;
  weights: Record<string, unknown> | null;
  metadata_filtering_conditions?: Record<string, unknown> | null;
}

/** `top_k` bounds (**Decision**: Dify has none). */
export const TOP_K_MIN = 1;
export const TOP_K_MAX = 100;

/** What an economy dataset without a stored model shows: Dify's economy default. */
export const ECONOMY_RETRIEVAL_MODEL: RetrievalModel = {
  search_method: "keyword_search",
  reranking_enable: false,
  reranking_mode: null,
  reranking_model: { reranking_provider_name: "", reranking_model_name: "" },
  weights: null,
  top_k: 2,
  score_threshold_enabled: false,
  score_threshold: 0,
};

/** Search methods that need an embedding model: none runs here. */
const NEEDS_EMBEDDINGS: ReadonlySet<SearchMethod> = new Set(["semantic_search", "hybrid_search"]);

/**
 * Refuses what needs a model no workspace here has: semantic or hybrid search, or reranking
 * (400 `provider_not_initialize`, Dify's answer on a workspace without a model provider).
 */
export function ensureRetrievalWithoutModel(model: RetrievalModel): void {
  if (NEEDS_EMBEDDINGS.has(model.search_method) || model.reranking_enable)
    throw new ProviderNotInitializeError();
}
