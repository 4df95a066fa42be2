import { InvalidParamError, ProviderNotInitializeError } from "@service-api/domain";
import { z } from "zod";
import { id, pagedList, pageQuery } from "../../api/common-schemas.js";
import { ALWAYS, BODY, DATASET, invalid, NO_MODEL, PAGED } from "../../api/errors.js";
import { defineOperation } from "../../api/operation.js";
import { pathId } from "../../http/params.js";
import { DATASET_EXAMPLE, DATASET_PAGE_EXAMPLE } from "./examples.js";
import type { DatasetUseCases } from "./index.js";
import { presentDataset } from "./presenters.js";
import { createDatasetBody, datasetObject, updateDatasetBody } from "./schemas.js";

const TAG = "Datasets";
const datasetId = id("The knowledge base (dataset).");

/** What the dataset object's answers share: the created or changed dataset. */
const DATASET_ANSWER = { status: 200, schema: datasetObject, example: DATASET_EXAMPLE } as const;

/** The refusals a create and an update share, after the body's shape. */
const SETTINGS_REFUSALS = [
  invalid("name: Name must not be blank."),
  invalid("name: Name must be between 1 to 40 characters."),
  invalid("description: Description cannot exceed 400 characters."),
  invalid("retrieval_model.top_k: must be an integer from 1 to 100."),
  NO_MODEL,
  {
    status: 409,
    code: "dataset_name_duplicate",
    message: "The dataset name already exists. Please modify your dataset name.",
  },
];

/** A summary index needs a language model: none runs here. */
function refuseSummaryIndex(setting: { enable?: boolean | null } | null | undefined): void {
  if (setting?.enable === true) throw new ProviderNotInitializeError();
}

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
    params: z.object({ dataset_id: datasetId }),
    success: { status: 200, description: "The dataset.", schema: datasetObject, example: DATASET_EXAMPLE },
    errors: [...ALWAYS, ...DATASET],
    async handle({ workspaceId, params }) {
      return presentDataset(await useCases.getDataset.execute({ workspaceId, datasetId: params.dataset_id }));
    },
  }),
  defineOperation({
    operationId: "createDataset",
    method: "post",
    path: "/datasets",
    tag: TAG,
    summary: "Create a knowledge base",
    description:
      "An empty dataset of the workspace, its API on; what needs a model (high quality, semantic search, reranking) is refused.",
    key: "knowledge",
    body: createDatasetBody,
    success: { ...DATASET_ANSWER, description: "The dataset, as created." },
    errors: [
      ...ALWAYS,
      ...BODY,
      ...SETTINGS_REFUSALS,
      invalid("External knowledge bases are not supported."),
    ],
    async handle({ workspaceId, body }) {
      refuseSummaryIndex(body.summary_index_setting);
      const view = await useCases.createDataset.execute({
        workspaceId,
        name: body.name,
        description: body.description,
        indexingTechnique: body.indexing_technique,
        permission: body.permission ?? undefined,
        provider: body.provider,
        retrievalModel: body.retrieval_model,
      });
      return presentDataset(view);
    },
  }),
  defineOperation({
    operationId: "updateDataset",
    method: "patch",
    path: "/datasets/{dataset_id}",
    tag: TAG,
    summary: "Update a knowledge base",
    description: "Only the settings sent change; `updated_by` and `updated_at` with them.",
    key: "knowledge",
    dataset: "in-use-case",
    params: z.object({ dataset_id: datasetId }),
    body: updateDatasetBody,
    success: { ...DATASET_ANSWER, description: "The dataset, as changed." },
    errors: [
      ...ALWAYS,
      ...DATASET,
      ...BODY,
      ...SETTINGS_REFUSALS,
      invalid("indexing_technique: cannot be unset."),
    ],
    async handle({ workspaceId, params, body }) {
      const view = await useCases.updateDataset.execute({
        workspaceId,
        datasetId: params.dataset_id,
        name: body.name,
        description: body.description,
        indexingTechnique: body.indexing_technique,
        permission: body.permission,
        retrievalModel: body.retrieval_model,
      });
      return presentDataset(view);
    },
  }),
  defineOperation({
    operationId: "deleteDataset",
    method: "delete",
    path: "/datasets/{dataset_id}",
    tag: TAG,
    summary: "Delete a knowledge base",
    description:
      "The dataset and everything in it leave every read at once, however large; its rows are purged in the background.",
    key: "knowledge",
    dataset: "in-use-case",
    params: z.object({ dataset_id: datasetId }),
    success: { status: 204, description: "Deleted." },
    errors: [...ALWAYS, ...DATASET],
    async handle({ workspaceId, params }) {
      await useCases.deleteDataset.execute({ workspaceId, datasetId: params.dataset_id });
    },
  }),
];
