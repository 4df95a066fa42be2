import type { Repositories, Store } from "../../repositories.js";
import { AccessRevision } from "./access-revision.js";
import { InMemoryApiKeyRepository } from "./in-memory-api-key-repository.js";
import { InMemoryAppRepository } from "./in-memory-app-repository.js";
import { InMemoryConversationRepository } from "./in-memory-conversation-repository.js";
import { InMemoryDatasetRepository } from "./in-memory-dataset-repository.js";
import { InMemoryDocumentRepository } from "./in-memory-document-repository.js";
import { InMemoryEndUserRepository } from "./in-memory-end-user-repository.js";
import { InMemoryFileStore } from "./in-memory-file-store.js";
import { InMemoryJobQueue } from "./in-memory-job-queue.js";
import { InMemoryMetadataRepository } from "./in-memory-metadata-repository.js";
import { InMemoryRateLimitRepository } from "./in-memory-rate-limit-repository.js";
import { InMemorySearchIndex } from "./in-memory-search-index.js";
import { InMemorySecretRepository } from "./in-memory-secret-repository.js";
import { InMemoryTagRepository } from "./in-memory-tag-repository.js";
import { InMemoryWorkspaceRepository } from "./in-memory-workspace-repository.js";
import { copyOf, restoreAll, type SnapshottingRepositories, snapshotAll } from "./snapshotting.js";

/**
 * A store that lives in memory: for use-case tests and demos, never for data that matters.
 * Transactions roll back by restoring a snapshot; they are not isolated from concurrent writers;
 * their counts are always up to date (`manyRows` changes nothing).
 * A snapshot reads a copy of every repository, taken when it starts.
 */
export function createInMemoryStore(): Store {
  const repositories = createInMemoryRepositories();
  return {
    repositories,
    async transaction<T>(work: (repositories: Repositories) => Promise<T>): Promise<T> {
      const saved = snapshotAll(repositories);
      try {
        return await work(repositories);
      } catch (error) {
        restoreAll(repositories, saved);
        throw error;
      }
    },
    snapshot: async (work) => work(copyOf(repositories, createInMemoryRepositories())),
    ping: async () => {},
    close: async () => {},
  };
}

/** Empty repositories wired to one another, as one store's are. */
function createInMemoryRepositories(): SnapshottingRepositories {
  // Shared, and never rolled back: a revision that changed for nothing only costs a re-read.
  const access = new AccessRevision();
  const workspaces = new InMemoryWorkspaceRepository(access);
  const metadata = new InMemoryMetadataRepository();
  const tags = new InMemoryTagRepository();
  const documents = new InMemoryDocumentRepository(metadata, workspaces, (workspaceId, datasetId) =>
    datasets.findInWorkspace(workspaceId, datasetId),
  );
  const datasets = new InMemoryDatasetRepository(documents, workspaces, tags, metadata);
  tags.datasetOf = (workspaceId, datasetId) => datasets.findInWorkspace(workspaceId, datasetId);
  metadata.datasetWithCount = async (workspaceId, datasetId) => {
    const dataset = await datasets.findInWorkspace(workspaceId, datasetId);
    return { dataset, documentCount: dataset ? await documents.countInDataset(dataset.id) : 0 };
  };
  metadata.documentsOf = async (datasetId, documentIds) =>
    (await documents.findManyInDataset(datasetId, documentIds)).map((document) => document.id);
  const jobs = new InMemoryJobQueue();
  documents.jobHeld = (jobId, holder) => jobs.holds(jobId, holder);
  const endUsers = new InMemoryEndUserRepository();
  const conversations = new InMemoryConversationRepository();
  conversations.endUserIdOf = async (appId, sessionId) =>
    (await endUsers.findBySessionId(appId, sessionId))?.id;
  return {
    workspaces,
    apiKeys: new InMemoryApiKeyRepository(access),
    datasets,
    documents,
    segments: documents,
    search: new InMemorySearchIndex(documents, {
      valuesOf: (documentId) => metadata.valuesOf(documentId),
      uploaderName: async (document) => {
        for (const workspace of await workspaces.list()) {
          const member = await workspaces.findMember(workspace.id, document.createdBy);
          if (member) return member.name;
        }
        return null;
      },
    }),
    metadata,
    tags,
    apps: new InMemoryAppRepository(access),
    endUsers,
    conversations,
    rateLimits: new InMemoryRateLimitRepository(),
    jobs,
    files: new InMemoryFileStore((fileId) => documents.hasUploadFile(fileId)),
    secrets: new InMemorySecretRepository(),
  };
}
