import { DeleteSegment, GetSegment, ListChildChunks, ListSegments } from "@service-api/application";
import type { InjectionToken } from "tsyringe";
import { defineFamily } from "../family.js";
import { segmentOperations } from "./operations.js";

export interface SegmentUseCases {
  listSegments: ListSegments;
  getSegment: GetSegment;
  deleteSegment: DeleteSegment;
  listChildChunks: ListChildChunks;
}

/** A document's chunks (segments), as Dify's chunks API serves them. */
export const segmentsFamily = defineFamily({
  name: "segments",
  token: Symbol("SegmentUseCases") as InjectionToken<SegmentUseCases>,
  useCases: ({ store, repositories }) => ({
    listSegments: new ListSegments(repositories.datasets, repositories.documents, repositories.segments),
    getSegment: new GetSegment(repositories.datasets, repositories.documents, repositories.segments),
    deleteSegment: new DeleteSegment(store),
    listChildChunks: new ListChildChunks(
      repositories.datasets,
      repositories.documents,
      repositories.segments,
    ),
  }),
  operations: segmentOperations,
});
