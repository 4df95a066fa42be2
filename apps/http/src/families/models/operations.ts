import { MODEL_TYPE_REFUSED } from "@service-api/application";
import { MODEL_TYPES } from "@service-api/domain";
import { z } from "zod";
import { ALWAYS, invalid } from "../../api/errors.js";
import { defineOperation } from "../../api/operation.js";
import type { ModelUseCases } from "./index.js";

const label = z.record(z.string(), z.string());

const providerModels = z.object({
  provider: z.string(),
  label,
  icon_small: label.nullable(),
  icon_large: label.nullable(),
  status: z.string(),
  models: z.array(
    z.object({
      model: z.string(),
      label,
      model_type: z.enum(MODEL_TYPES),
      features: z.array(z.string()).nullable(),
      fetch_from: z.string(),
      model_properties: z.record(z.string(), z.unknown()),
      status: z.string(),
    }),
  ),
});

export const modelOperations = (useCases: ModelUseCases) => [
  defineOperation({
    operationId: "getAvailableModels",
    method: "get",
    path: "/workspaces/current/models/model-types/{model_type}",
    tag: "Models",
    summary: "Get the available models",
    description: "No model can run or be reached from this service: always none.",
    key: "knowledge",
    params: z.object({
      model_type: z.string().meta({ enum: [...MODEL_TYPES], description: "The kind of model." }),
    }),
    success: {
      status: 200,
      description: "The workspace's providers with models of the type.",
      schema: z.object({ data: z.array(providerModels) }),
      example: { data: [] },
    },
    errors: [...ALWAYS, invalid(MODEL_TYPE_REFUSED)],
    async handle({ workspaceId, params }) {
      const providers = await useCases.listAvailableModels.execute({
        workspaceId,
        modelType: params.model_type,
      });
      return {
        data: providers.map((provider) => ({
          provider: provider.provider,
          label: provider.label,
          icon_small: provider.iconSmall,
          icon_large: provider.iconLarge,
          status: provider.status,
          models: provider.models.map((model) => ({
            model: model.model,
            label: model.label,
            model_type: model.modelType,
            features: model.features,
            fetch_from: model.fetchFrom,
            model_properties: model.properties,
            status: model.status,
          })),
        })),
      };
    },
  }),
];
