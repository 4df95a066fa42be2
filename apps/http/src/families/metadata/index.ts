import {
  CreateMetadataField,
  DeleteMetadataField,
  ListBuiltInFields,
  ListMetadataFields,
  RenameMetadataField,
  SetDocumentMetadata,
  ToggleBuiltInFields,
} from "@service-api/application";
import type { InjectionToken } from "tsyringe";
import { defineFamily } from "../family.js";
import { metadataOperations } from "./operations.js";

export interface MetadataUseCases {
  listMetadataFields: ListMetadataFields;
  createMetadataField: CreateMetadataField;
  renameMetadataField: RenameMetadataField;
  deleteMetadataField: DeleteMetadataField;
  listBuiltInFields: ListBuiltInFields;
  toggleBuiltInFields: ToggleBuiltInFields;
  setDocumentMetadata: SetDocumentMetadata;
}

/** Metadata fields of a knowledge base and their values on documents. */
export const metadataFamily = defineFamily({
  name: "metadata",
  token: Symbol("MetadataUseCases") as InjectionToken<MetadataUseCases>,
  useCases: ({ repositories: { datasets, metadata }, clock, ids }) => ({
    listMetadataFields: new ListMetadataFields(metadata),
    createMetadataField: new CreateMetadataField(metadata, datasets, ids, clock),
    renameMetadataField: new RenameMetadataField(metadata, datasets),
    deleteMetadataField: new DeleteMetadataField(metadata, datasets),
    listBuiltInFields: new ListBuiltInFields(),
    toggleBuiltInFields: new ToggleBuiltInFields(datasets, clock),
    setDocumentMetadata: new SetDocumentMetadata(metadata),
  }),
  operations: metadataOperations,
});
