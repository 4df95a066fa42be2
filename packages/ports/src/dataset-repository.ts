import type { Dataset } from "@service-api/domain";

/** Knowledge bases with their processing rule. */
export interface DatasetRepository {
  /** Inserts or replaces the dataset with this id, with its processing rule. */
  save(dataset: Dataset): Promise<void>;
  /** The dataset with this id if it belongs to this workspace; another workspace's is absent. */
  findInWorkspace(workspaceId: string, datasetId: string): Promise<Dataset | undefined>;
  /** The workspace's datasets, oldest first (then by id). */
  listInWorkspace(workspaceId: string): Promise<Dataset[]>;
}
