import { DOCUMENT_NOT_FOUND, SEGMENT_NOT_FOUND } from "@service-api/application";
import { parseCappedLimit } from "@service-api/domain";
import { z } from "zod";
import { id, pageQuery } from "../../api/common-schemas.js";
import { ALWAYS, DATASET, invalid, notFound } from "../../api/errors.js";
import { defineOperation, type Operation } from "../../api/operation.js";
import type { SegmentUseCases } from "./index.js";
import { presentChildChunk, presentSegment } from "./presenters.js";
import { childChunkPage, oneSegment, segmentPage } from "./schemas.js";

const TAG = "Chunks";
const scope = {
  dataset_id: id("The knowledge base (dataset)."),
  document_id: id("The document."),
};
const segmentId = id("The chunk (segment).");
const DOCUMENT = [notFound(DOCUMENT_NOT_FOUND)];
const limitParameter = z
  .string()
  .optional()
  .meta({ type: "integer", minimum: 1, default: 20, description: "Items per page; at most 100 served." })
  .transform(parseCappedLimit);
const PAGE_REFUSALS = [
  invalid("page: must be an integer of at least 1."),
  invalid("limit: must be an integer of at least 1."),
];
const SEGMENT_EXAMPLE = {
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

/** A document's chunks: read them, page through them, delete one; a chunk's child chunks. */
export function segmentOperations(useCases: SegmentUseCases): Operation[] {
  const list = defineOperation({
    operationId: "listSegments",
    method: "get",
    path: "/datasets/{dataset_id}/documents/{document_id}/segments",
    tag: TAG,
    summary: "List a document's chunks",
    description: "By position, with their child chunks; `limit` above 100 is served as 100.",
    key: "knowledge",
    dataset: "in-use-case",
    params: z.object(scope),
    query: z.object({
      page: pageQuery.page,
      limit: limitParameter,
      status: z.array(z.string()).optional().meta({
        description: "Only chunks of these statuses (repeat it): `completed`, `indexing`, `error`…",
      }),
      keyword: z
        .string()
        .optional()
        .meta({ description: "A substring of the content; ASCII letters in either case." }),
    }),
    success: {
      status: 200,
      description: "A page of chunks.",
      schema: segmentPage,
      example: {
        data: [SEGMENT_EXAMPLE],
        doc_form: "text_model",
        total: 1,
        has_more: false,
        limit: 20,
        page: 1,
      },
    },
    errors: [...ALWAYS, ...DATASET, ...DOCUMENT, ...PAGE_REFUSALS],
    async handle({ workspaceId, params, query }) {
      const found = await useCases.listSegments.execute({
        workspaceId,
        datasetId: params.dataset_id,
        documentId: params.document_id,
        page: { page: query.page, limit: query.limit },
        statuses: query.status,
        keyword: query.keyword,
      });
      return {
        data: found.segments.map(presentSegment),
        doc_form: found.docForm,
        total: found.total,
        has_more: found.hasMore,
        limit: found.limit,
        page: found.page,
      };
    },
  });
  const segmentPath = "/datasets/{dataset_id}/documents/{document_id}/segments/{segment_id}";
  const get = defineOperation({
    operationId: "getSegmentDetail",
    method: "get",
    path: segmentPath,
    tag: TAG,
    summary: "Get a chunk",
    key: "knowledge",
    dataset: "in-use-case",
    params: z.object({ ...scope, segment_id: segmentId }),
    success: {
      status: 200,
      description: "The chunk.",
      schema: oneSegment,
      example: { data: SEGMENT_EXAMPLE, doc_form: "text_model" },
    },
    errors: [...ALWAYS, ...DATASET, ...DOCUMENT, notFound(SEGMENT_NOT_FOUND)],
    async handle({ workspaceId, params }) {
      const found = await useCases.getSegment.execute({
        workspaceId,
        datasetId: params.dataset_id,
        documentId: params.document_id,
        segmentId: params.segment_id,
      });
      return { data: presentSegment(found), doc_form: found.docForm };
    },
  });
  const remove = defineOperation({
    operationId: "deleteSegment",
    method: "delete",
    path: segmentPath,
    tag: TAG,
    summary: "Delete a chunk",
    description: "With its child chunks; the document's and the dataset's word counts follow at once.",
    key: "knowledge",
    dataset: "in-use-case",
    params: z.object({ ...scope, segment_id: segmentId }),
    success: { status: 204, description: "Deleted." },
    errors: [...ALWAYS, ...DATASET, ...DOCUMENT, notFound(SEGMENT_NOT_FOUND)],
    async handle({ workspaceId, params }) {
      await useCases.deleteSegment.execute({
        workspaceId,
        datasetId: params.dataset_id,
        documentId: params.document_id,
        segmentId: params.segment_id,
      });
    },
  });
  const children = defineOperation({
    operationId: "getChildChunks",
    method: "get",
    path: `${segmentPath}/child_chunks`,
    tag: TAG,
    summary: "List a chunk's child chunks",
    description: "By position; `limit` above 100 is served as 100.",
    key: "knowledge",
    dataset: "in-use-case",
    params: z.object({ ...scope, segment_id: segmentId }),
    query: z.object({
      page: pageQuery.page,
      limit: limitParameter,
      keyword: z
        .string()
        .optional()
        .meta({ description: "A substring of the content; ASCII letters in either case." }),
    }),
    success: {
      status: 200,
      description: "A page of child chunks.",
      schema: childChunkPage,
      example: {
        data: [
          {
            id: "7d1e2f3a-4b5c-4d6e-8f90-a1b2c3d4e5f6",
            segment_id: SEGMENT_EXAMPLE.id,
            content: "Hold the button for ten seconds.",
            position: 1,
            word_count: 32,
            type: "automatic",
            created_at: 1764650000,
            updated_at: 1764650000,
          },
        ],
        total: 1,
        total_pages: 1,
        page: 1,
        limit: 20,
      },
    },
    errors: [...ALWAYS, ...DATASET, ...DOCUMENT, notFound(SEGMENT_NOT_FOUND), ...PAGE_REFUSALS],
    async handle({ workspaceId, params, query }) {
      const found = await useCases.listChildChunks.execute({
        workspaceId,
        datasetId: params.dataset_id,
        documentId: params.document_id,
        segmentId: params.segment_id,
        page: { page: query.page, limit: query.limit },
        keyword: query.keyword,
      });
      return {
        data: found.children.map(presentChildChunk),
        total: found.total,
        total_pages: found.totalPages,
        page: found.page,
        limit: found.limit,
      };
    },
  });
  return [list, get, remove, children];
}
