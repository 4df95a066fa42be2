import { type CountedTag, UNSTORABLE_NAME } from "@service-api/domain";
import { z } from "zod";
import { id } from "../../api/common-schemas.js";
import { ALWAYS, BODY, DATASET, invalid, notFound } from "../../api/errors.js";
import { defineOperation } from "../../api/operation.js";
import { firstQueryValue, pathId } from "../../http/params.js";
import { queryOf } from "../../http/query.js";
import { DATASET_TAGS_EXAMPLE } from "./examples.js";
import type { TagUseCases } from "./index.js";
import {
  bindingBody,
  createTagBody,
  datasetTags,
  deleteTagBody,
  deleteTagQuery,
  knowledgeTag,
  renameTagBody,
  TAG_ID_REQUIRED,
  unbindingBody,
} from "./schemas.js";

const TAG = "Tags";
const EXAMPLE = {
  id: "9e3c1a7b-2f4d-4c8e-a1b5-6d7f8e9a0b21",
  name: "product",
  type: "knowledge",
  binding_count: "0",
};
const NAME_ERRORS = [
  invalid("name: Name must not be blank."),
  invalid("name: Name must be between 1 to 50 characters."),
  invalid(UNSTORABLE_NAME),
  invalid("Tag name already exists"),
];

const presentTag = (tag: CountedTag): z.output<typeof knowledgeTag> => ({
  id: tag.id,
  name: tag.name,
  type: "knowledge",
  binding_count: String(tag.bindingCount),
});

export const tagOperations = (useCases: TagUseCases) => [
  defineOperation({
    operationId: "getKnowledgeTags",
    method: "get",
    path: "/datasets/tags",
    tag: TAG,
    summary: "List knowledge tags",
    description: "The workspace's knowledge tags, newest first, with the number of datasets bound.",
    key: "knowledge",
    success: { status: 200, description: "The tags.", schema: z.array(knowledgeTag), example: [EXAMPLE] },
    errors: ALWAYS,
    async handle({ workspaceId }) {
      return (await useCases.listKnowledgeTags.execute({ workspaceId })).map(presentTag);
    },
  }),
  defineOperation({
    operationId: "createKnowledgeTag",
    method: "post",
    path: "/datasets/tags",
    tag: TAG,
    summary: "Create a knowledge tag",
    key: "knowledge",
    body: createTagBody,
    success: { status: 200, description: "The new tag.", schema: knowledgeTag, example: EXAMPLE },
    errors: [...ALWAYS, ...BODY, ...NAME_ERRORS],
    async handle({ workspaceId, body }) {
      return presentTag(await useCases.createKnowledgeTag.execute({ workspaceId, name: body.name }));
    },
  }),
  defineOperation({
    operationId: "updateKnowledgeTag",
    method: "patch",
    path: "/datasets/tags",
    tag: TAG,
    summary: "Rename a knowledge tag",
    key: "knowledge",
    body: renameTagBody,
    success: { status: 200, description: "The tag renamed.", schema: knowledgeTag, example: EXAMPLE },
    errors: [...ALWAYS, ...BODY, ...NAME_ERRORS, notFound("Tag not found")],
    async handle({ workspaceId, body }) {
      return presentTag(
        await useCases.renameKnowledgeTag.execute({ workspaceId, tagId: body.tag_id, name: body.name }),
      );
    },
  }),
  defineOperation({
    operationId: "deleteKnowledgeTag",
    method: "delete",
    path: "/datasets/tags",
    tag: TAG,
    summary: "Delete a knowledge tag",
    description: "With all its bindings; the datasets stay. `tag_id` from the query, else the JSON body.",
    key: "knowledge",
    query: deleteTagQuery,
    body: deleteTagBody,
    readsBody: (req) => !firstQueryValue(queryOf(req).tag_id),
    success: { status: 204, description: "Deleted." },
    errors: [...ALWAYS, ...BODY, invalid(`tag_id: ${TAG_ID_REQUIRED}`), notFound("Tag not found")],
    async handle({ workspaceId, query, body }) {
      const tagId = query.tag_id !== undefined ? pathId(query.tag_id) : body.tag_id;
      await useCases.deleteKnowledgeTag.execute({ workspaceId, tagId });
    },
  }),
  defineOperation({
    operationId: "bindTagsToDataset",
    method: "post",
    path: "/datasets/tags/binding",
    tag: TAG,
    summary: "Bind tags to a dataset",
    description:
      "Pairs already bound are left as they are; ids that are not knowledge tags of the workspace are ignored.",
    key: "knowledge",
    body: bindingBody,
    success: { status: 204, description: "Bound." },
    errors: [...ALWAYS, ...BODY, invalid("tag_ids: Tag IDs is required."), notFound("Dataset not found")],
    async handle({ workspaceId, body }) {
      await useCases.bindTagsToDataset.execute({
        workspaceId,
        tagIds: body.tag_ids,
        targetId: body.target_id,
      });
    },
  }),
  defineOperation({
    operationId: "unbindTagFromDataset",
    method: "post",
    path: "/datasets/tags/unbinding",
    tag: TAG,
    summary: "Unbind tags from a dataset",
    description: "Ids that are not bound, or not knowledge tags of the workspace, are ignored.",
    key: "knowledge",
    body: unbindingBody,
    success: { status: 204, description: "Unbound." },
    errors: [...ALWAYS, ...BODY, invalid("tag_ids: Tag IDs is required."), notFound("Dataset not found")],
    async handle({ workspaceId, body }) {
      await useCases.unbindTagsFromDataset.execute({ workspaceId, ...body });
    },
  }),
  defineOperation({
    operationId: "queryDatasetTags",
    method: "get",
    path: "/datasets/{dataset_id}/tags",
    tag: TAG,
    summary: "List a dataset's tags",
    key: "knowledge",
    dataset: "in-use-case",
    params: z.object({ dataset_id: id("The knowledge base (dataset).") }),
    success: {
      status: 200,
      description: "The knowledge tags bound to the dataset.",
      schema: datasetTags,
      example: DATASET_TAGS_EXAMPLE,
    },
    errors: [...ALWAYS, ...DATASET],
    async handle({ workspaceId, params }) {
      const tags = await useCases.listDatasetTags.execute({ workspaceId, datasetId: params.dataset_id });
      return { data: tags.map(({ id: tagId, name }) => ({ id: tagId, name })), total: tags.length };
    },
  }),
];
