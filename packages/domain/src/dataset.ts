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
  description: string;
  /** The member who created it; null when unknown. */
  createdBy: string | null;
  /** The member who last changed it; null until then. */
  updatedBy: string | null;
  createdAt: number;
  updatedAt: number;
}

/** What the store counts for a dataset, kept in step with every write. */
export interface DatasetCounts {
  documents: number;
  /** Documents whose display status is `available`. */
  availableDocuments: number;
  /** The documents' word counts, summed. */
  words: number;
}

export const DATASET_NOT_FOUND = "Dataset not found.";

/** A knowledge operation may use a dataset only if it is the key's workspace's and serves the API. */
export function ensureDatasetServesApi(dataset: Dataset | undefined): Dataset {
  if (!dataset) throw new NotFoundError(DATASET_NOT_FOUND);
  if (!dataset.enableApi) throw new ForbiddenError("Dataset api access is not enabled.");
  return dataset;
}
