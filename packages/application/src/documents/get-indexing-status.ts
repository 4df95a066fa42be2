import { NotFoundError } from "@service-api/domain";
import type { BatchDocument, DatasetRepository, DocumentRepository } from "@service-api/ports";
import { checkedDataset } from "../datasets/open-dataset.js";
import { ensureInput } from "../input-checks.js";

export interface GetIndexingStatusInput {
  workspaceId: string;
  datasetId: string;
  /** A batch a create or update answered (any text: a batch is no id). */
  batch: string;
}

/** Get Indexing Status: the batch's documents with their indexing steps, after the dataset checks. */
export class GetIndexingStatus {
  constructor(
    private readonly datasets: DatasetRepository,
    private readonly documents: DocumentRepository,
  ) {}

  async execute(input: GetIndexingStatusInput): Promise<BatchDocument[]> {
    ensureInput(input);
    const dataset = await checkedDataset(this.datasets, input);
    const found =
      typeof input.batch === "string" ? await this.documents.listBatch(dataset.id, input.batch) : [];
    if (found.length === 0) throw new NotFoundError("Documents not found.");
    return found;
  }
}
