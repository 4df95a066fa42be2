import { UNSTORABLE_NAME, UNSTORABLE_TEXT } from "@service-api/domain";
import { z } from "zod";
import { id, success } from "../../api/common-schemas.js";
import { ALWAYS, BODY, DATASET, invalid, notFound } from "../../api/errors.js";
import { defineOperation } from "../../api/operation.js";
import { BUILT_IN_FIELDS_EXAMPLE, FIELD_LIST_EXAMPLE } from "./examples.js";
import type { MetadataUseCases } from "./index.js";
import { presentMetadataField, presentMetadataFields } from "./presenters.js";
import {
  builtInFields,
  createFieldBody,
  documentMetadataBody,
  metadataField,
  metadataFieldList,
  renameFieldBody,
} from "./schemas.js";

const datasetId = id("The knowledge base (dataset).");
const fieldParams = z.object({ dataset_id: datasetId, metadata_id: id("The metadata field.") });
const TAG = "Metadata";
const DONE = { status: 200 as const, description: "Done.", schema: success, example: { result: "success" } };
const FIELD_EXAMPLE = { id: "3f7b2c1e-8d4a-4e6f-9b1c-2a5d7e9f0b13", type: "string", name: "author" };
const NAME_ERRORS = [
  invalid("name: Name must not be blank."),
  invalid("name: Metadata name cannot exceed 255 characters."),
  invalid(UNSTORABLE_NAME),
  invalid("Metadata name already exists in Built-in fields."),
  invalid("Metadata name already exists."),
];

export const metadataOperations = (useCases: MetadataUseCases) => [
  defineOperation({
    operationId: "listMetadataFields",
    method: "get",
    path: "/datasets/{dataset_id}/metadata",
    tag: TAG,
    summary: "List metadata fields",
    description: "Custom fields with the number of documents holding a value, then the built-ins when shown.",
    key: "knowledge",
    params: z.object({ dataset_id: datasetId }),
    success: {
      status: 200,
      description: "The dataset's fields.",
      schema: metadataFieldList,
      example: FIELD_LIST_EXAMPLE,
    },
    errors: [...ALWAYS, ...DATASET],
    async handle({ workspaceId, params }) {
      return presentMetadataFields(
        await useCases.listMetadataFields.execute({ workspaceId, datasetId: params.dataset_id }),
      );
    },
  }),
  defineOperation({
    operationId: "createMetadataField",
    method: "post",
    path: "/datasets/{dataset_id}/metadata",
    tag: TAG,
    summary: "Create a metadata field",
    key: "knowledge",
    dataset: "in-use-case",
    params: z.object({ dataset_id: datasetId }),
    body: createFieldBody,
    success: { status: 201, description: "The new field.", schema: metadataField, example: FIELD_EXAMPLE },
    errors: [
      ...ALWAYS,
      ...DATASET,
      ...BODY,
      invalid("type: must be string, number or time."),
      ...NAME_ERRORS,
    ],
    async handle({ workspaceId, params, body }) {
      return presentMetadataField(
        await useCases.createMetadataField.execute({ workspaceId, datasetId: params.dataset_id, ...body }),
      );
    },
  }),
  defineOperation({
    operationId: "updateMetadataField",
    method: "patch",
    path: "/datasets/{dataset_id}/metadata/{metadata_id}",
    tag: TAG,
    summary: "Rename a metadata field",
    description: "Every document keeps its value and shows the new name at once.",
    key: "knowledge",
    dataset: "in-use-case",
    params: fieldParams,
    body: renameFieldBody,
    success: {
      status: 200,
      description: "The field renamed.",
      schema: metadataField,
      example: FIELD_EXAMPLE,
    },
    errors: [...ALWAYS, ...DATASET, ...BODY, ...NAME_ERRORS, notFound("Metadata not found.")],
    async handle({ workspaceId, params, body }) {
      return presentMetadataField(
        await useCases.renameMetadataField.execute({
          workspaceId,
          datasetId: params.dataset_id,
          fieldId: params.metadata_id,
          name: body.name,
        }),
      );
    },
  }),
  defineOperation({
    operationId: "deleteMetadataField",
    method: "delete",
    path: "/datasets/{dataset_id}/metadata/{metadata_id}",
    tag: TAG,
    summary: "Delete a metadata field",
    description: "With its value on every document.",
    key: "knowledge",
    dataset: "in-use-case",
    params: fieldParams,
    success: { status: 204, description: "Deleted." },
    errors: [...ALWAYS, ...DATASET, notFound("Metadata not found.")],
    async handle({ workspaceId, params }) {
      await useCases.deleteMetadataField.execute({
        workspaceId,
        datasetId: params.dataset_id,
        fieldId: params.metadata_id,
      });
    },
  }),
  defineOperation({
    operationId: "getBuiltInMetadataFields",
    method: "get",
    path: "/datasets/{dataset_id}/metadata/built-in",
    tag: TAG,
    summary: "List the built-in metadata fields",
    key: "knowledge",
    dataset: true,
    params: z.object({ dataset_id: datasetId }),
    success: {
      status: 200,
      description: "The five built-in fields.",
      schema: builtInFields,
      example: BUILT_IN_FIELDS_EXAMPLE,
    },
    errors: [...ALWAYS, ...DATASET],
    async handle({ dataset }) {
      const fields = await useCases.listBuiltInFields.execute({ dataset });
      return { fields: fields.map(({ name, type }) => ({ name, type })) };
    },
  }),
  defineOperation({
    operationId: "toggleBuiltInMetadataField",
    method: "post",
    path: "/datasets/{dataset_id}/metadata/built-in/{action}",
    tag: TAG,
    summary: "Show or hide the built-in metadata fields",
    key: "knowledge",
    dataset: "in-use-case",
    params: z.object({
      dataset_id: datasetId,
      action: z.enum(["enable", "disable"], { error: "must be enable or disable." }),
    }),
    success: DONE,
    errors: [...ALWAYS, ...DATASET, invalid("action: must be enable or disable.")],
    async handle({ workspaceId, params }) {
      await useCases.toggleBuiltInFields.execute({
        workspaceId,
        datasetId: params.dataset_id,
        enabled: params.action === "enable",
      });
      return { result: "success" };
    },
  }),
  defineOperation({
    operationId: "batchUpdateDocumentMetadata",
    method: "post",
    path: "/datasets/{dataset_id}/documents/metadata",
    tag: TAG,
    summary: "Set documents' metadata values",
    description: "In order, all or nothing; values are typed by their field.",
    key: "knowledge",
    dataset: "in-use-case",
    params: z.object({ dataset_id: datasetId }),
    body: documentMetadataBody,
    success: DONE,
    errors: [
      ...ALWAYS,
      ...DATASET,
      ...BODY,
      notFound("Document not found."),
      notFound("Metadata not found."),
      invalid("operation_data.0.metadata_list.0.value: must be a finite number or numeric string."),
      invalid(`operation_data.0.metadata_list.0.value: ${UNSTORABLE_TEXT}`),
    ],
    async handle({ workspaceId, params, body }) {
      await useCases.setDocumentMetadata.execute({
        workspaceId,
        datasetId: params.dataset_id,
        operations: body.operation_data.map((operation) => ({
          documentId: operation.document_id,
          metadataList: operation.metadata_list.map((item) => ({ id: item.id, value: item.value ?? null })),
          partialUpdate: operation.partial_update,
        })),
      });
      return { result: "success" };
    },
  }),
];
