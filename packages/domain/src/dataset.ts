import { ForbiddenError, NotFoundError } from "./errors.js";

/** How a knowledge base or a document is split into chunks. `rules` is kept as given. */
export interface ProcessRule {
  id: string;
  mode: string;
  rules: Record<string, unknown>;
}

/** A knowledge base. */
export interface Dataset {
  id: string;
  workspaceId: string;
  name: string;
  /** When false, knowledge operations on this dataset answer 403. */
  enableApi: boolean;
  /** When true, the five built-in metadata fields are shown. */
  builtInFieldEnabled: boolean;
  processRule: ProcessRule | undefined;
  createdAt: number;
}

/** A knowledge operation may use a dataset only if it is the key's workspace's and serves the API. */
export function ensureDatasetServesApi(dataset: Dataset | undefined): Dataset {
  if (!dataset) throw new NotFoundError("Dataset not found.");
  if (!dataset.enableApi) throw new ForbiddenError("Dataset api access is not enabled.");
  return dataset;
}
