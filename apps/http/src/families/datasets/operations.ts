import { InvalidParamError } from "@service-api/domain";
import { z } from "zod";
import { id, pagedList, pageQuery } from "../../api/common-schemas.js";
import { ALWAYS, DATASET, invalid, PAGED } from "../../api/errors.js";
import { defineOperation } from "../../api/operation.js";
import { pathId } from "../../http/params.js";
import { DATASET_EXAMPLE, DATASET_PAGE_EXAMPLE } from "./examples.js";
import type { DatasetUseCases } from "./index.js";
import { presentDataset } from "./presenters.js";
import { datasetObject } from "./schemas.js";

const TAG = "Datasets";

/** `include_all` changes nothing (every dataset is listed) but must be a boolean. */
function checkIncludeAll(value: string | undefined): void {
  if (value !== undefined && !/^(true|false|1|0)$/i.test(value))
    throw new InvalidParamError("include_all", "include_all: must be true or false.");
}

export const datasetOperations = (useCases: DatasetUseCases) => [
  defineOperation({
    operationId: "listDatasets",
    method: "get",
    path: "/datasets",
    tag: TAG,
    summary: "List knowledge bases",
    description: "Every dataset of the workspace, newest first, `enable_api` false too.",
    key: "knowledge",
    query: z.object({
      ...pageQuery,
      keyword: z
        .string()
        .optional()
        .meta({ description: "A substring of the name; ASCII letters in either case." }),
      tag_ids: z.array(z.string()).optional().meta({
        description: "Only datasets bound to every one of these knowledge tags (repeat the parameter).",
      }),
      include_all: z
        .string()
        .optional()
        .meta({ enum: ["true", "false"], description: "Accepted; changes nothing." }),
    }),
    success: {
      status: 200,
      description: "A page of datasets.",
      schema: pagedList(datasetObject, "The datasets."),
      example: DATASET_PAGE_EXAMPLE,
    },
    errors: [...ALWAYS, ...PAGED, invalid("include_all: must be true or false.")],
    async handle({ workspaceId, query }) {
      checkIncludeAll(query.include_all);
      const result = await useCases.listDatasets.execute({
        workspaceId,
        page: { page: query.page, limit: query.limit },
        keyword: query.keyword,
        tagIds: query.tag_ids?.map((tagId) => pathId(tagId)),
      });
      const { items, hasMore, limit, total } = result;
      return { data: items.map(presentDataset), has_more: hasMore, limit, total, page: result.page };
    },
  }),
  defineOperation({
    operationId: "getDatasetDetail",
    method: "get",
    path: "/datasets/{dataset_id}",
    tag: TAG,
    summary: "Get a knowledge base",
    key: "knowledge",
    params: z.object({ dataset_id: id("The knowledge base (dataset).") }),
    success: { status: 200, description: "The dataset.", schema: datasetObject, example: DATASET_EXAMPLE },
    errors: [...ALWAYS, ...DATASET],
    async handle({ workspaceId, params }) {
      return presentDataset(await useCases.getDataset.execute({ workspaceId, datasetId: params.dataset_id }));
    },
  }),
];
