import type {
  DataSourceType,
  Dataset,
  DatasetCounts,
  DocForm,
  MetadataField,
  Tag,
} from "@service-api/domain";
import type { ServedTo } from "./served-to.js";

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

/** Knowledge bases with their processing rule. Counts are kept by the store, in step with every write. */
export interface DatasetRepository {
  /**
   * Inserts or replaces the dataset with this id, with its processing rule (imports). Answers
   * "owned_elsewhere", writing nothing, when the id is another workspace's dataset (a dataset never
   * moves); undefined when it wrote.
   */
  save(dataset: Dataset): Promise<"owned_elsewhere" | undefined>;
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
