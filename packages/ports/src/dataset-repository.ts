import type {
  DataSourceType,
  Dataset,
  DatasetCounts,
  DatasetPermission,
  DocForm,
  IndexingTechnique,
  MetadataField,
  RetrievalModel,
  Tag,
} from "@service-api/domain";
import type { ServedTo } from "./served-to.js";
import type { SaveRefusal } from "./tag-repository.js";

/** A dataset with what the store knows around it: counts, first document, creator, tags and fields. */
export interface DatasetOverview {
  dataset: Dataset;
  counts: DatasetCounts;
  /** Of its first document (by position, then id); absent without documents. */
  firstDocument: { dataSourceType: DataSourceType; docForm: DocForm } | undefined;
  /** The creator member's name; null when unknown. */
  authorName: string | null;
  /** The knowledge tags bound to it, by name (in code point order), then id. */
  tags: Tag[];
  /** Its custom metadata fields, in creation order. */
  fields: MetadataField[];
}

/** Which datasets a list holds. */
export interface DatasetFilter {
  /** A substring of the name (see `matchesTextFilter`). */
  keyword?: string;
  /** Only datasets bound to every one of these tags. */
  tagIds?: readonly string[];
}

/** What an update changes: the settings given, and who changed it when. */
export interface DatasetChanges {
  name?: string;
  description?: string;
  indexingTechnique?: IndexingTechnique;
  permission?: DatasetPermission;
  retrievalModel?: RetrievalModel;
  updatedBy: string | null;
  updatedAt: number;
}

/**
 * Knowledge bases with their processing rule. Counts are kept by the store, in step with every
 * write. A dataset's name is unique in its workspace (a unique index: of two racing writers, one
 * is refused). A deleted dataset leaves every read of its workspace at once (`moveToTrash`); its
 * rows go later, a batch at a time (`purgeTrashed`).
 */
export interface DatasetRepository {
  /**
   * Inserts or replaces the dataset with this id, with its processing rule (imports). Writing
   * nothing, answers "owned_elsewhere" when the id is another workspace's dataset (a dataset never
   * moves), "name_taken" when another dataset of the workspace has its name; undefined when it wrote.
   */
  save(dataset: Dataset): Promise<Exclude<SaveRefusal, "type_differs"> | undefined>;
  /** Inserts a new dataset; false, writing nothing, when a dataset of its workspace has its name. */
  create(dataset: Dataset): Promise<boolean>;
  /**
   * Changes the workspace's dataset in one statement: the dataset as changed; "not_found" when the
   * workspace has none of this id; "name_taken", writing nothing, when another of its datasets has
   * the new name. Renaming a dataset to its own name succeeds.
   */
  update(
    workspaceId: string,
    datasetId: string,
    changes: DatasetChanges,
  ): Promise<Dataset | "not_found" | "name_taken">;
  /**
   * Deletes the workspace's dataset as every reader sees it, in a few statements whatever its size:
   * it leaves its workspace (for the trash, renamed to its id, so its name is free at once) and its
   * tag bindings go. False when the workspace has no such dataset. Its documents, fields and the
   * rest are purged later (`purgeTrashed`).
   */
  moveToTrash(workspaceId: string, datasetId: string): Promise<boolean>;
  /**
   * Purges a deleted dataset a batch at a time: up to `batch` of its documents (with their chunks
   * and values) per call, then, with none left, its fields and itself. "more" while rows remain,
   * "done" when it is gone (or was never in the trash). Each call is its own transaction.
   */
  purgeTrashed(datasetId: string, batch: number): Promise<"more" | "done">;
  /**
   * For each of these processing rule ids that a dataset holds, as its own rule or one of its
   * documents', the ids of the datasets holding it, in no particular order; an id none holds is
   * absent. Reads every dataset's and document's rule (no index serves it): for imports.
   */
  findProcessRuleHolders(ruleIds: readonly string[]): Promise<Map<string, string[]>>;
  /** The dataset with this id if it belongs to this workspace; another workspace's is absent. */
  findInWorkspace(workspaceId: string, datasetId: string): Promise<Dataset | undefined>;
  /** The workspace's datasets, oldest first (then by id). */
  listInWorkspace(workspaceId: string): Promise<Dataset[]>;
  /** The dataset's overview if it belongs to this workspace: one statement where the store can. */
  findOverview(workspaceId: string, datasetId: string): Promise<DatasetOverview | undefined>;
  /**
   * A page of the workspace's datasets matching `filter`, newest first (`createdAt`), then by id,
   * and how many match in all: one statement where the store can.
   */
  listPage(
    workspaceId: string,
    filter: DatasetFilter,
    offset: number,
    limit: number,
  ): Promise<{ items: DatasetOverview[]; total: number }>;
  /**
   * Sets whether built-in fields are shown, `updatedAt` too when it changes: "changed"; "unchanged"
   * when they already were; "refused", writing nothing, when there is no such dataset (with
   * `servedTo`: none serving that workspace). One statement where the store can write inside a
   * `WITH`; elsewhere a read follows a write that changed nothing.
   */
  setBuiltInFieldEnabled(
    datasetId: string,
    enabled: boolean,
    updatedAt: number,
    servedTo?: ServedTo,
  ): Promise<"changed" | "unchanged" | "refused">;
  /**
   * Inside a transaction: holds the dataset's row until the transaction ends, so that checks made
   * before a write still hold when it lands, excluding every other write to its documents and
   * values (PostgreSQL: its turnstile, then `FOR NO KEY UPDATE`; a no-op where writes are serial).
   */
  lockForUpdate(datasetId: string): Promise<void>;
}
