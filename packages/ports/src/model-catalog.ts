import type { ModelType } from "@service-api/domain";

/** A model a provider offers, in Dify's shape (`label` by locale). */
export interface AvailableModel {
  model: string;
  label: Record<string, string>;
  modelType: ModelType;
  features: string[] | null;
  fetchFrom: string;
  properties: Record<string, unknown>;
  status: string;
}

/** A provider's models of one type. */
export interface ProviderModels {
  /** `organization/plugin_name/provider_name`. */
  provider: string;
  label: Record<string, string>;
  iconSmall: Record<string, string> | null;
  iconLarge: Record<string, string> | null;
  status: string;
  models: AvailableModel[];
}

/**
 * The language, embedding and rerank models a workspace can use. None can run or be reached here,
 * so the one catalog the service ships is empty; a provider added later implements this.
 */
export interface ModelCatalog {
  /** The workspace's providers with models of this type, in the provider's order; [] for none. */
  availableModels(workspaceId: string, type: ModelType): Promise<ProviderModels[]>;
}
