import type { ApiKeyRepository } from "./api-key-repository.js";
import type { AppRepository } from "./app-repository.js";
import type { ConversationRepository } from "./conversation-repository.js";
import type { DatasetRepository } from "./dataset-repository.js";
import type { DocumentRepository } from "./document-repository.js";
import type { EndUserRepository } from "./end-user-repository.js";
import type { MetadataRepository } from "./metadata-repository.js";
import type { TagRepository } from "./tag-repository.js";
import type { WorkspaceRepository } from "./workspace-repository.js";

/** Every repository of one store. An adapter package builds them all over one connection. */
export interface Repositories {
  workspaces: WorkspaceRepository;
  apiKeys: ApiKeyRepository;
  datasets: DatasetRepository;
  documents: DocumentRepository;
  metadata: MetadataRepository;
  tags: TagRepository;
  apps: AppRepository;
  endUsers: EndUserRepository;
  conversations: ConversationRepository;
}

/** A store that is open, and how to close it. */
export interface Store {
  repositories: Repositories;
  /**
   * Runs `work` with repositories whose writes land all together when it resolves, or not at all
   * when it rejects (the rejection is passed on). Other writers wait or retry as the store needs.
   */
  transaction<T>(work: (repositories: Repositories) => Promise<T>): Promise<T>;
  /** Whether the store answers; for health checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
