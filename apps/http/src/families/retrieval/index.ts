import { QUERY_REQUIRED, QUERY_TOO_LONG, Retrieve } from "@service-api/application";
import type { InjectionToken } from "tsyringe";
import { z } from "zod";
import { id } from "../../api/common-schemas.js";
import { ALWAYS, BODY, DATASET, invalid, NO_MODEL } from "../../api/errors.js";
import { defineOperation, type Operation } from "../../api/operation.js";
import { defineFamily } from "../family.js";
import { presentRetrieval } from "./presenters.js";
import { retrieval, retrieveBody } from "./schemas.js";

export interface RetrievalUseCases {
  retrieve: Retrieve;
}

const EXAMPLE = {
  query: { content: "reset the device" },
  records: [],
};

function retrievalOperations({ retrieve }: RetrievalUseCases): Operation[] {
  const operation = defineOperation({
    operationId: "retrieveSegments",
    method: "post",
    path: "/datasets/{dataset_id}/retrieve",
    tag: "Retrieval",
    summary: "Retrieve chunks from a knowledge base",
    description:
      "BM25 over the dataset's enabled chunks of completed, enabled, unarchived documents (no model needed); a parent-child document is searched by its child chunks and answered by their parents. `hit_count` is not changed.",
    key: "knowledge",
    dataset: "in-use-case",
    params: z.object({ dataset_id: id("The knowledge base (dataset).") }),
    body: retrieveBody,
    success: {
      status: 200,
      description: "The chunks found, best first.",
      schema: retrieval,
      example: EXAMPLE,
    },
    errors: [
      ...ALWAYS,
      ...DATASET,
      ...BODY,
      invalid(QUERY_REQUIRED),
      invalid(QUERY_TOO_LONG),
      invalid("retrieval_model.top_k: must be an integer from 1 to 100."),
      NO_MODEL,
    ],
    async handle({ workspaceId, params, body }) {
      const found = await retrieve.execute({
        workspaceId,
        datasetId: params.dataset_id,
        query: body.query,
        retrievalModel: body.retrieval_model,
        attachmentIds: body.attachment_ids,
      });
      return presentRetrieval(found);
    },
  });
  const alias = {
    ...operation,
    operationId: "hitTestingSegments",
    path: "/datasets/{dataset_id}/hit-testing",
    summary: "Retrieve chunks from a knowledge base (hit testing: the same)",
  };
  return [operation, alias];
}

/** Retrieval: search a knowledge base's chunks. */
export const retrievalFamily = defineFamily({
  name: "retrieval",
  token: Symbol("RetrievalUseCases") as InjectionToken<RetrievalUseCases>,
  useCases: ({ store }) => ({ retrieve: new Retrieve(store) }),
  operations: retrievalOperations,
});
