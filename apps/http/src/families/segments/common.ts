import { DOCUMENT_NOT_FOUND } from "@service-api/application";
import { parseCappedLimit } from "@service-api/domain";
import { z } from "zod";
import { id } from "../../api/common-schemas.js";
import { invalid, notFound } from "../../api/errors.js";

// What the chunks operations share: their tag, path parameters, refusals and examples.

export const TAG = "Chunks";
export const scope = {
  dataset_id: id("The knowledge base (dataset)."),
  document_id: id("The document."),
};
export const segmentId = id("The chunk (segment).");
export const DOCUMENT = [notFound(DOCUMENT_NOT_FOUND)];
export const limitParameter = z
  .string()
  .optional()
  .meta({ type: "integer", minimum: 1, default: 20, description: "Items per page; at most 100 served." })
  .transform(parseCappedLimit);
export const PAGE_REFUSALS = [
  invalid("page: must be an integer of at least 1."),
  invalid("limit: must be an integer of at least 1."),
];
export const SEGMENT_EXAMPLE = {
  id: "3f0c5b8e-2d0a-4a4b-9a61-5e1f0b7c9d21",
  position: 1,
  document_id: "a8e0e5b5-78c6-4130-a5ce-25feb0e0b4ac",
  content: "Hold the button for ten seconds to reset it.",
  sign_content: "Hold the button for ten seconds to reset it.",
  answer: null,
  word_count: 44,
  tokens: 0,
  keywords: [],
  index_node_id: "9b2f4c1e-5d3a-4e6f-8a7b-1c2d3e4f5a6b",
  index_node_hash: "5c6a1e0f0f4b7a5f3c1d2e9b8a7f6e5d4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f",
  hit_count: 0,
  enabled: true,
  disabled_at: null,
  disabled_by: null,
  status: "completed",
  created_by: "ad313dd6-ef04-4dd1-a5b0-c0f0b9e2e7e4",
  created_at: 1764650000,
  updated_at: 1764650000,
  updated_by: null,
  indexing_at: 1764650000,
  completed_at: 1764650000,
  error: null,
  stopped_at: null,
  child_chunks: [],
  attachments: [],
  summary: null,
};

export const CHILD_CHUNK_EXAMPLE = {
  id: "7d1e2f3a-4b5c-4d6e-8f90-a1b2c3d4e5f6",
  segment_id: SEGMENT_EXAMPLE.id,
  content: "Hold the button for ten seconds.",
  position: 1,
  word_count: 32,
  type: "automatic" as const,
  created_at: 1764650000,
  updated_at: 1764650000,
};
