import { SEGMENT_NOT_FOUND } from "@service-api/application";
import { z } from "zod";
import { pageQuery } from "../../api/common-schemas.js";
import { ALWAYS, DATASET, notFound } from "../../api/errors.js";
import { defineOperation, type Operation } from "../../api/operation.js";
import {
  CHILD_CHUNK_EXAMPLE,
  DOCUMENT,
  limitParameter,
  PAGE_REFUSALS,
  SEGMENT_EXAMPLE,
  scope,
  segmentId,
  TAG,
} from "./common.js";
import type { SegmentUseCases } from "./index.js";
import { presentChildChunk, presentSegment } from "./presenters.js";
import { childChunkPage, oneSegment, segmentPage } from "./schemas.js";

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
        data: [CHILD_CHUNK_EXAMPLE],
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
