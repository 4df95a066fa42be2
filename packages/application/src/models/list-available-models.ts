import { InvalidParamError, isModelType, MODEL_TYPES } from "@service-api/domain";
import type { ModelCatalog, ProviderModels } from "@service-api/ports";
import { ensureInput } from "../input-checks.js";

export interface ListAvailableModelsInput {
  workspaceId: string;
  modelType: string;
}

export const MODEL_TYPE_REFUSED = `model_type: must be one of ${MODEL_TYPES.join(", ")}.`;

/** Get Available Models: the workspace's providers with models of a type (none without a provider). */
export class ListAvailableModels {
  constructor(private readonly catalog: ModelCatalog) {}

  async execute(input: ListAvailableModelsInput): Promise<ProviderModels[]> {
    ensureInput(input);
    if (typeof input.modelType !== "string" || !isModelType(input.modelType))
      throw new InvalidParamError("model_type", MODEL_TYPE_REFUSED);
    return this.catalog.availableModels(input.workspaceId, input.modelType);
  }
}

/** The catalog without any provider: what a workspace here has, as no model can run or be reached. */
export const NO_MODELS: ModelCatalog = { availableModels: async () => [] };
