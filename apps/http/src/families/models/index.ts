import { ListAvailableModels, NO_MODELS } from "@service-api/application";
import type { InjectionToken } from "tsyringe";
import { defineFamily } from "../family.js";
import { modelOperations } from "./operations.js";

export interface ModelUseCases {
  listAvailableModels: ListAvailableModels;
}

/** The models a workspace can use: none, as no model can run or be reached here. */
export const modelsFamily = defineFamily({
  name: "models",
  token: Symbol("ModelUseCases") as InjectionToken<ModelUseCases>,
  useCases: () => ({ listAvailableModels: new ListAvailableModels(NO_MODELS) }),
  operations: modelOperations,
});
