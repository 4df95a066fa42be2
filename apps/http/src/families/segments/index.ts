import {
  CreateChildChunk,
  CreateSegments,
  DeleteChildChunk,
  DeleteSegment,
  GetSegment,
  ListChildChunks,
  ListSegments,
  UpdateChildChunk,
  UpdateSegment,
} from "@service-api/application";
import type { InjectionToken } from "tsyringe";
import { defineFamily } from "../family.js";
import { childChunkOperations } from "./child-chunk-operations.js";
import { segmentOperations } from "./operations.js";
import { segmentWriteOperations } from "./write-operations.js";

export interface SegmentUseCases {
  listSegments: ListSegments;
  getSegment: GetSegment;
  createSegments: CreateSegments;
  updateSegment: UpdateSegment;
  deleteSegment: DeleteSegment;
  listChildChunks: ListChildChunks;
  createChildChunk: CreateChildChunk;
  updateChildChunk: UpdateChildChunk;
  deleteChildChunk: DeleteChildChunk;
  /** DATASET_MAX_SEGMENTS_PER_REQUEST, as the refusal names it. */
  maxSegmentsPerRequest: number;
  /** The body limit of the chunks' writes: an upload's, as a document by text has. */
  bodyLimitBytes: number;
}

/** A document's chunks (segments) and their child chunks, as Dify's chunks API serves them. */
export const segmentsFamily = defineFamily({
  name: "segments",
  token: Symbol("SegmentUseCases") as InjectionToken<SegmentUseCases>,
  useCases: ({ store, repositories, ids, clock, hasher, config }) => {
    const writing = { store, ids, clock, hasher };
    const { datasets, documents, segments } = repositories;
    return {
      listSegments: new ListSegments(datasets, documents, segments),
      getSegment: new GetSegment(datasets, documents, segments),
      createSegments: new CreateSegments(writing, config.maxSegmentsPerRequest),
      updateSegment: new UpdateSegment(writing),
      deleteSegment: new DeleteSegment(store),
      listChildChunks: new ListChildChunks(datasets, documents, segments),
      createChildChunk: new CreateChildChunk(writing),
      updateChildChunk: new UpdateChildChunk(writing),
      deleteChildChunk: new DeleteChildChunk(writing),
      maxSegmentsPerRequest: config.maxSegmentsPerRequest,
      bodyLimitBytes: config.uploadLimitBytes,
    };
  },
  operations: (useCases) => [
    ...segmentOperations(useCases),
    ...segmentWriteOperations(useCases),
    ...childChunkOperations(useCases),
  ],
});
