import type { Store } from "../../repositories.js";
import { InMemoryApiKeyRepository } from "./in-memory-api-key-repository.js";
import { InMemoryAppRepository } from "./in-memory-app-repository.js";
import { InMemoryConversationRepository } from "./in-memory-conversation-repository.js";
import { InMemoryDatasetRepository } from "./in-memory-dataset-repository.js";
import { InMemoryDocumentRepository } from "./in-memory-document-repository.js";
import { InMemoryEndUserRepository } from "./in-memory-end-user-repository.js";
import { InMemoryMetadataRepository } from "./in-memory-metadata-repository.js";
import { InMemoryTagRepository } from "./in-memory-tag-repository.js";
import { InMemoryWorkspaceRepository } from "./in-memory-workspace-repository.js";

/** A store that lives in memory: for use-case tests and demos, never for data that matters. */
export function createInMemoryStore(): Store {
  return {
    repositories: {
      workspaces: new InMemoryWorkspaceRepository(),
      apiKeys: new InMemoryApiKeyRepository(),
      datasets: new InMemoryDatasetRepository(),
      documents: new InMemoryDocumentRepository(),
      metadata: new InMemoryMetadataRepository(),
      tags: new InMemoryTagRepository(),
      apps: new InMemoryAppRepository(),
      endUsers: new InMemoryEndUserRepository(),
      conversations: new InMemoryConversationRepository(),
    },
    ping: async () => {},
    close: async () => {},
  };
}
