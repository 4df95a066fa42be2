import type { ApiKeyRepository } from "./api-key-repository.js";
import type { AppRepository } from "./app-repository.js";
import type { ConversationRepository } from "./conversation-repository.js";
import type { DatasetRepository } from "./dataset-repository.js";
import type { DocumentRepository } from "./document-repository.js";
import type { EndUserRepository } from "./end-user-repository.js";
import type { FileStore } from "./file-store.js";
import type { JobQueue } from "./job-queue.js";
import type { MetadataRepository } from "./metadata-repository.js";
import type { RateLimitRepository } from "./rate-limit-repository.js";
import type { SearchIndex } from "./search-index.js";
import type { SecretRepository } from "./secret-repository.js";
import type { SegmentRepository } from "./segment-repository.js";
import type { TagRepository } from "./tag-repository.js";
import type { WorkspaceRepository } from "./workspace-repository.js";

/** Every repository of one store. An adapter package builds them all over one connection. */
export interface Repositories {
  workspaces: WorkspaceRepository;
  apiKeys: ApiKeyRepository;
  datasets: DatasetRepository;
  documents: DocumentRepository;
  segments: SegmentRepository;
  search: SearchIndex;
  metadata: MetadataRepository;
  tags: TagRepository;
  apps: AppRepository;
  endUsers: EndUserRepository;
  conversations: ConversationRepository;
  rateLimits: RateLimitRepository;
  jobs: JobQueue;
  files: FileStore;
  secrets: SecretRepository;
}

/** A store that is open, and how to close it. */
export interface Store {
  repositories: Repositories;
  /**
   * Runs `work` with repositories whose writes land all together when it resolves, or not at all
   * when it rejects (the rejection is passed on). Other writers wait or retry as the store needs.
   */
  transaction<T>(work: (repositories: Repositories) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Runs `work` with repositories that all read one state of the store: what was committed before
   * their first read, and nothing committed after it, by this store or another. For reading only:
   * a write through them fails (on a database) or lands nowhere (in memory). The result or the
   * rejection is passed on; `work` is never run twice, so it may have effects of its own (writing
   * a file). A database holds a connection, and an old state, for as long as `work` runs; a SQLite
   * database in memory has no other, so calls through the store itself wait until `work` ends
   * (`work` must not await one). A conflict is a `StoreUnavailableError`, as elsewhere.
   */
  snapshot<T>(work: (repositories: Repositories) => Promise<T>): Promise<T>;
  /** Whether the store answers; for health checks. */
  ping(): Promise<void>;
  /** The connections a pooled store holds now; absent for a store without a pool. */
  connections?(): ConnectionCounts;
  close(): Promise<void>;
}

export interface TransactionOptions {
  /**
   * The transaction writes many rows (an import): the store may bring the counts it keeps of them
   * (a dataset's documents and words, a field's documents, a tag's bindings) up to date once, when
   * `work` resolves, instead of with every row. Read inside the transaction, those counts may then
   * still be the ones it began with; every other reader sees them right. Such a transaction must
   * not delete a dataset, field or tag and make one again with the same id: the changes counted
   * for the one deleted would count for the new one.
   */
  manyRows?: boolean;
}

/** A connection pool's state at one moment. */
export interface ConnectionCounts {
  /** Connections running a statement or a transaction. */
  inUse: number;
  /** Open connections waiting for work. */
  idle: number;
  /** Requests waiting for a connection. */
  waiting: number;
}

/**
 * Told how the store answers, so that an outage can be reported once rather than per request.
 * A store calls it from every repository call; each method must return at once and never throw.
 */
export interface StoreMonitor {
  /** A call failed because the store could not be reached; the caller got a `StoreUnavailableError`. */
  unavailable(error: Error): void;
  /**
   * A call completed: the store answers. `startedAt` is when the call began (`performance.now()`),
   * so that a call begun before an outage, and answered just as it began, does not end it.
   */
  available(startedAt: number): void;
  /** The store dropped a connection that was not in use; the next call opens another. */
  connectionLost(error: Error): void;
  /**
   * A call lost a conflict with concurrent transactions (a deadlock, say) every time it was tried,
   * and its caller got a `StoreUnavailableError`: not an outage, but worth a line.
   */
  conflictsExhausted?(error: Error): void;
  /**
   * A call waited as long as it may for a lock another connection held (an import's, a long
   * write's), and its caller got a `StoreUnavailableError`: the store serves, but not this call now.
   * Not an outage.
   */
  lockWaitExceeded?(error: Error): void;
  /** Upkeep the store runs on its own (not a caller's call) failed; it is tried again later. */
  backgroundTaskFailed?(task: string, error: Error): void;
}
