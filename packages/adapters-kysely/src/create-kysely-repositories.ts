import type { Repositories } from "@service-api/ports";
import type { Kysely } from "kysely";
import type { GroupFlush } from "./group-flush.js";
import { KyselyApiKeyRepository } from "./repositories/kysely-api-key-repository.js";
import { KyselyAppRepository } from "./repositories/kysely-app-repository.js";
import { KyselyConversationRepository } from "./repositories/kysely-conversation-repository.js";
import { KyselyDatasetRepository } from "./repositories/kysely-dataset-repository.js";
import { KyselyDocumentRepository } from "./repositories/kysely-document-repository.js";
import { KyselyEndUserRepository } from "./repositories/kysely-end-user-repository.js";
import { KyselyFileStore } from "./repositories/kysely-file-store.js";
import { KyselyJobQueue } from "./repositories/kysely-job-queue.js";
import { KyselyMetadataRepository } from "./repositories/kysely-metadata-repository.js";
import { KyselyRateLimitRepository } from "./repositories/kysely-rate-limit-repository.js";
import { KyselySearchIndex } from "./repositories/kysely-search-index.js";
import { KyselySecretRepository } from "./repositories/kysely-secret-repository.js";
import { KyselySegmentRepository } from "./repositories/kysely-segment-repository.js";
import { KyselyTagRepository } from "./repositories/kysely-tag-repository.js";
import { KyselyWorkspaceRepository } from "./repositories/kysely-workspace-repository.js";
import { readSeparately } from "./repositories/separate-reads.js";
import type { DatabaseSchema } from "./schema.js";
import type { SqlFeatures } from "./sql-features.js";

export interface KyselyRepositoryOptions {
  /** The access revision when the driver knows it without a query (`KyselyStoreOptions`). */
  knownAccessRevision?: () => number | undefined;
  /**
   * The flush that writes releasing their locks early wait for together (`features.earlyLockRelease`).
   * Ignored for a transaction (whose own commit flushes) and where the features have no early
   * release: every write then commits with its flush as usual.
   */
  commitFlush?: GroupFlush;
}

export function createKyselyRepositories(
  db: Kysely<DatabaseSchema>,
  features: SqlFeatures,
  { knownAccessRevision, commitFlush }: KyselyRepositoryOptions = {},
): Repositories {
  const flush = features.earlyLockRelease && !db.isTransaction ? commitFlush : undefined;
  const repositories = {
    workspaces: new KyselyWorkspaceRepository(db),
    apiKeys: new KyselyApiKeyRepository(db, knownAccessRevision),
    datasets: new KyselyDatasetRepository(db, features),
    documents: new KyselyDocumentRepository(db, features),
    segments: new KyselySegmentRepository(db, features),
    search: new KyselySearchIndex(db, features),
    metadata: new KyselyMetadataRepository(db, features, flush),
    tags: new KyselyTagRepository(db, features),
    apps: new KyselyAppRepository(db),
    endUsers: new KyselyEndUserRepository(db),
    conversations: new KyselyConversationRepository(db, features),
    rateLimits: new KyselyRateLimitRepository(db),
    jobs: new KyselyJobQueue(db, features),
    files: new KyselyFileStore(db),
    secrets: new KyselySecretRepository(db),
  } satisfies Repositories;
  if (!features.gathersReads) readSeparately(repositories);
  return repositories;
}
