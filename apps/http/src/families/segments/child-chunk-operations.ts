import {
  CHILD_CHUNK_NOT_FOUND,
  CHILDREN_ONLY_IN_HIERARCHY,
  SEGMENT_NOT_FOUND,
} from "@service-api/application";
import { CONTENT_EMPTY } from "@service-api/domain";
import { z } from "zod";
import { id } from "../../api/common-schemas.js";
import { ALWAYS, BODY, DATASET, invalid, NO_MODEL, notFound } from "../../api/errors.js";
import { defineOperation, type Operation } from "../../api/operation.js";
import { CHILD_CHUNK_EXAMPLE, DOCUMENT, scope, segmentId, TAG } from "./common.js";
import type { SegmentUseCases } from "./index.js";
import { presentChildChunk } from "./presenters.js";
import { childChunkBody, oneChildChunk } from "./schemas.js";

const childrenPath = "/datasets/{dataset_id}/documents/{document_id}/segments/{segment_id}/child_chunks";
const SEGMENT = [...DOCUMENT, notFound(SEGMENT_NOT_FOUND)];
const childPath = `${childrenPath}/{child_chunk_id}`;
const childParams = z.object({ ...scope, segment_id: segmentId, child_chunk_id: id("The child chunk.") });
const answer = { status: 200, schema: oneChildChunk, example: { data: CHILD_CHUNK_EXAMPLE } } as const;

/** A parent-child document's chunk's child chunks: add one, change one, delete one. */
export function childChunkOperations(useCases: SegmentUseCases): Operation[] {
  const create = defineOperation({
    operationId: "createChildChunk",
    method: "post",
    path: childrenPath,
    tag: TAG,
    summary: "Add a child chunk",
    description:
      "After the chunk's last child chunk, `customized`; only a parent-child document's chunks have them.",
    key: "knowledge",
    dataset: "in-use-case",
    params: z.object({ ...scope, segment_id: segmentId }),
    body: childChunkBody,
    success: { ...answer, description: "The child chunk added." },
    errors: [
      ...ALWAYS,
      ...DATASET,
      ...SEGMENT,
      NO_MODEL,
      invalid(CHILDREN_ONLY_IN_HIERARCHY),
      ...BODY,
      invalid(CONTENT_EMPTY),
    ],
    async handle({ workspaceId, params, body }) {
      const child = await useCases.createChildChunk.execute({
        workspaceId,
        datasetId: params.dataset_id,
        documentId: params.document_id,
        segmentId: params.segment_id,
        body,
      });
      return { data: presentChildChunk(child) };
    },
  });
  const update = defineOperation({
    operationId: "updateChildChunk",
    method: "patch",
    path: childPath,
    tag: TAG,
    summary: "Update a child chunk",
    description: "Its content; it is `customized` from then on.",
    key: "knowledge",
    dataset: "in-use-case",
    params: childParams,
    body: childChunkBody,
    success: { ...answer, description: "The child chunk as it is now." },
    errors: [
      ...ALWAYS,
      ...DATASET,
      ...SEGMENT,
      notFound(CHILD_CHUNK_NOT_FOUND),
      ...BODY,
      invalid(CONTENT_EMPTY),
      NO_MODEL,
    ],
    async handle({ workspaceId, params, body }) {
      const child = await useCases.updateChildChunk.execute({
        workspaceId,
        datasetId: params.dataset_id,
        documentId: params.document_id,
        segmentId: params.segment_id,
        childChunkId: params.child_chunk_id,
        body,
      });
      return { data: presentChildChunk(child) };
    },
  });
  const remove = defineOperation({
    operationId: "deleteChildChunk",
    method: "delete",
    path: childPath,
    tag: TAG,
    summary: "Delete a child chunk",
    key: "knowledge",
    dataset: "in-use-case",
    params: childParams,
    success: { status: 204, description: "Deleted." },
    errors: [...ALWAYS, ...DATASET, ...SEGMENT, notFound(CHILD_CHUNK_NOT_FOUND)],
    async handle({ workspaceId, params }) {
      await useCases.deleteChildChunk.execute({
        workspaceId,
        datasetId: params.dataset_id,
        documentId: params.document_id,
        segmentId: params.segment_id,
        childChunkId: params.child_chunk_id,
      });
    },
  });
  return [create, update, remove];
}
