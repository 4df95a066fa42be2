import { describeApiKeyRepositoryContract } from "./contracts/api-key-repository.contract.js";
import { describeAppRepositoryContract } from "./contracts/app-repository.contract.js";
import { describeConversationRepositoryContract } from "./contracts/conversation-repository.contract.js";
import { describeDatasetLifecycleContract } from "./contracts/dataset-lifecycle.contract.js";
import { describeDatasetRepositoryContract } from "./contracts/dataset-repository.contract.js";
import { describeDocumentIndexingContract } from "./contracts/document-indexing.contract.js";
import { describeDocumentRepositoryContract } from "./contracts/document-repository.contract.js";
import { describeEndUserRepositoryContract } from "./contracts/end-user-repository.contract.js";
import { describeFileStoreContract } from "./contracts/file-store.contract.js";
import { describeJobQueueContract } from "./contracts/job-queue.contract.js";
import { describeLargeBatchesContract } from "./contracts/large-batches.contract.js";
import { describeListingContract } from "./contracts/listing.contract.js";
import { describeManyRowsContract } from "./contracts/many-rows.contract.js";
import { describeMetadataManagementContract } from "./contracts/metadata-management.contract.js";
import { describeMetadataRepositoryContract } from "./contracts/metadata-repository.contract.js";
import { describeRateLimitRepositoryContract } from "./contracts/rate-limit-repository.contract.js";
import { describeSecretRepositoryContract } from "./contracts/secret-repository.contract.js";
import { describeSegmentRepositoryContract } from "./contracts/segment-repository.contract.js";
import { describeStoreTransactionContract } from "./contracts/store.contract.js";
import { describeTagManagementContract } from "./contracts/tag-management.contract.js";
import { describeTagRepositoryContract } from "./contracts/tag-repository.contract.js";
import type { OpenStore } from "./contracts/use-store.js";
import { describeWorkspaceRepositoryContract } from "./contracts/workspace-repository.contract.js";

/** Runs every port's contract against one store implementation. Each test gets a fresh, empty store. */
export function describeStoreContract(openStore: OpenStore): void {
  describeWorkspaceRepositoryContract(openStore);
  describeApiKeyRepositoryContract(openStore);
  describeDatasetRepositoryContract(openStore);
  describeDatasetLifecycleContract(openStore);
  describeDocumentRepositoryContract(openStore);
  describeDocumentIndexingContract(openStore);
  describeSegmentRepositoryContract(openStore);
  describeMetadataRepositoryContract(openStore);
  describeTagRepositoryContract(openStore);
  describeAppRepositoryContract(openStore);
  describeEndUserRepositoryContract(openStore);
  describeConversationRepositoryContract(openStore);
  describeRateLimitRepositoryContract(openStore);
  describeJobQueueContract(openStore);
  describeFileStoreContract(openStore);
  describeSecretRepositoryContract(openStore);
  describeTagManagementContract(openStore);
  describeMetadataManagementContract(openStore);
  describeListingContract(openStore);
  describeLargeBatchesContract(openStore);
  describeStoreTransactionContract(openStore);
  describeManyRowsContract(openStore);
}
