import { DOCUMENT_DISABLED, DOCUMENT_NOT_COMPLETED, SEGMENT_NOT_FOUND } from "@service-api/application";
import {
  ANSWER_EMPTY,
  ANSWER_REQUIRED,
  ATTACHMENTS_UNSUPPORTED,
  CONTENT_EMPTY,
  DISABLED_SEGMENT,
  SEGMENTS_REQUIRED,
} from "@service-api/domain";
import { z } from "zod";
import { ALWAYS, BODY, DATASET, invalid, NO_MODEL, notFound } from "../../api/errors.js";
import { defineOperation, type Operation } from "../../api/operation.js";
import { DOCUMENT, SEGMENT_EXAMPLE, scope, segmentId, TAG } from "./common.js";
import type { SegmentUseCases } from "./index.js";
import { presentSegment } from "./presenters.js";
import { createSegmentsBody, oneSegment, segmentList, updateSegmentBody } from "./schemas.js";

const CONTENT_REFUSALS = [
  invalid(CONTENT_EMPTY),
  invalid(ANSWER_REQUIRED),
  invalid(ANSWER_EMPTY),
  invalid("keywords: must be a list of strings."),
  invalid(ATTACHMENTS_UNSUPPORTED),
];

/** Add chunks to a document, and change one. */
export function segmentWriteOperations(useCases: SegmentUseCases): Operation[] {
  const bodyLimit = {
    bytes: useCases.bodyLimitBytes,
    tooLarge: {
      status: 413,
      code: "request_entity_too_large",
      message: `The data value transmitted exceeds the capacity limit (${useCases.bodyLimitBytes / 1024 / 1024} MB).`,
    },
  };
  const create = defineOperation({
    operationId: "createSegments",
    method: "post",
    path: "/datasets/{dataset_id}/documents/{document_id}/segments",
    tag: TAG,
    summary: "Add chunks to a document",
    description:
      "After its last chunk, completed and enabled at once, their words on the document's and the dataset's counts. A parent-child document's chunks get their child chunks by its rule. All or none are added.",
    key: "knowledge",
    dataset: "in-use-case",
    params: z.object(scope),
    body: createSegmentsBody,
    bodyLimit,
    success: {
      status: 200,
      description: "The chunks added.",
      schema: segmentList,
      example: { data: [SEGMENT_EXAMPLE], doc_form: "text_model" },
    },
    errors: [
      ...ALWAYS,
      ...DATASET,
      ...DOCUMENT,
      notFound(DOCUMENT_NOT_COMPLETED),
      notFound(DOCUMENT_DISABLED),
      NO_MODEL,
      ...BODY,
      bodyLimit.tooLarge,
      invalid(SEGMENTS_REQUIRED),
      invalid(`Exceeded maximum segments limit of ${useCases.maxSegmentsPerRequest}.`),
      ...CONTENT_REFUSALS,
    ],
    async handle({ workspaceId, params, body }) {
      const created = await useCases.createSegments.execute({
        workspaceId,
        datasetId: params.dataset_id,
        documentId: params.document_id,
        segments: body.segments,
      });
      return { data: created.segments.map(presentSegment), doc_form: created.docForm };
    },
  });
  const update = defineOperation({
    operationId: "updateSegment",
    method: "post",
    path: "/datasets/{dataset_id}/documents/{document_id}/segments/{segment_id}",
    tag: TAG,
    summary: "Update a chunk",
    description:
      "Its content, answer, keywords, or whether it is enabled; the document's and the dataset's word counts follow at once.",
    key: "knowledge",
    dataset: "in-use-case",
    params: z.object({ ...scope, segment_id: segmentId }),
    body: updateSegmentBody,
    bodyLimit,
    success: {
      status: 200,
      description: "The chunk as it is now.",
      schema: oneSegment,
      example: { data: SEGMENT_EXAMPLE, doc_form: "text_model" },
    },
    errors: [
      ...ALWAYS,
      ...DATASET,
      NO_MODEL,
      ...DOCUMENT,
      notFound(SEGMENT_NOT_FOUND),
      ...BODY,
      bodyLimit.tooLarge,
      invalid("segment: must be an object."),
      invalid(DISABLED_SEGMENT),
      ...CONTENT_REFUSALS,
    ],
    async handle({ workspaceId, params, body }) {
      const updated = await useCases.updateSegment.execute({
        workspaceId,
        datasetId: params.dataset_id,
        documentId: params.document_id,
        segmentId: params.segment_id,
        segment: body.segment,
      });
      return { data: presentSegment(updated), doc_form: updated.docForm };
    },
  });
  return [create, update];
}
