import { ForbiddenError, InvalidParamError, NotFoundError, ProviderNotInitializeError } from "./errors.js";
import {
  BLANK_NAME,
  codePointLength,
  isBlank,
  NAME_NOT_TEXT,
  UNSTORABLE_NAME,
  UNSTORABLE_TEXT,
} from "./names.js";
import type { RetrievalModel } from "./retrieval-model.js";
import { isStorableText } from "./text.js";

export const INDEXING_TECHNIQUES = ["high_quality", "economy"] as const;
export type IndexingTechnique = (typeof INDEXING_TECHNIQUES)[number];

export const DATASET_PERMISSIONS = ["only_me", "all_team_members", "partial_members"] as const;
/** Stored and shown; it grants nothing here (any key of the workspace reaches every dataset). */
export type DatasetPermission = (typeof DATASET_PERMISSIONS)[number];

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
  /** Null until a create or the first document sets it; never unset after. */
  indexingTechnique: IndexingTechnique | null;
  permission: DatasetPermission;
  /** As a create or update gave it; null shows Dify's economy default. */
  retrievalModel: RetrievalModel | null;
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

export const DATASET_NAME_MAX_LENGTH = 40;
export const DATASET_DESCRIPTION_MAX_LENGTH = 400;

/** Why a dataset name is refused (not text, blank, length, text no store holds), else undefined. */
export function datasetNameProblem(name: unknown): string | undefined {
  if (typeof name !== "string") return NAME_NOT_TEXT;
  if (isBlank(name)) return BLANK_NAME;
  if (codePointLength(name) > DATASET_NAME_MAX_LENGTH)
    return `name: Name must be between 1 to ${DATASET_NAME_MAX_LENGTH} characters.`;
  if (!isStorableText(name)) return UNSTORABLE_NAME;
  return undefined;
}

/** Why a description is refused (length, text no store holds), else undefined. */
export function datasetDescriptionProblem(description: string): string | undefined {
  if (codePointLength(description) > DATASET_DESCRIPTION_MAX_LENGTH)
    return `description: Description cannot exceed ${DATASET_DESCRIPTION_MAX_LENGTH} characters.`;
  if (!isStorableText(description)) return `description: ${UNSTORABLE_TEXT}`;
  return undefined;
}

/** The name and description a create or update gives, checked in that order. */
export function ensureDatasetText(name: unknown, description: string | undefined): void {
  if (name !== undefined) {
    const problem = datasetNameProblem(name);
    if (problem) throw new InvalidParamError("name", problem);
  }
  const problem = description === undefined ? undefined : datasetDescriptionProblem(description);
  if (problem) throw new InvalidParamError("description", problem);
}

/** `high_quality` needs an embedding model: refused, as Dify refuses it without a provider. */
export function ensureTechniqueWithoutModel(technique: IndexingTechnique | null | undefined): void {
  if (technique === "high_quality") throw new ProviderNotInitializeError();
}
