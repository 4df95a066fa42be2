import {
  BindTagsToDataset,
  CreateKnowledgeTag,
  DeleteKnowledgeTag,
  ListDatasetTags,
  ListKnowledgeTags,
  RenameKnowledgeTag,
  UnbindTagsFromDataset,
} from "@service-api/application";
import type { InjectionToken } from "tsyringe";
import { defineFamily } from "../family.js";
import { tagOperations } from "./operations.js";

export interface TagUseCases {
  listKnowledgeTags: ListKnowledgeTags;
  createKnowledgeTag: CreateKnowledgeTag;
  renameKnowledgeTag: RenameKnowledgeTag;
  deleteKnowledgeTag: DeleteKnowledgeTag;
  bindTagsToDataset: BindTagsToDataset;
  unbindTagsFromDataset: UnbindTagsFromDataset;
  listDatasetTags: ListDatasetTags;
}

/** Knowledge tags of a workspace and their bindings to datasets. */
export const tagsFamily = defineFamily({
  name: "tags",
  token: Symbol("TagUseCases") as InjectionToken<TagUseCases>,
  useCases: ({ repositories: { tags, workspaces }, clock, ids }) => ({
    listKnowledgeTags: new ListKnowledgeTags(tags),
    createKnowledgeTag: new CreateKnowledgeTag(tags, ids, clock, workspaces),
    renameKnowledgeTag: new RenameKnowledgeTag(tags),
    deleteKnowledgeTag: new DeleteKnowledgeTag(tags),
    bindTagsToDataset: new BindTagsToDataset(tags, ids, clock),
    unbindTagsFromDataset: new UnbindTagsFromDataset(tags),
    listDatasetTags: new ListDatasetTags(tags),
  }),
  operations: tagOperations,
});
