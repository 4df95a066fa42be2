import type { Repositories } from "@service-api/ports";
import type { Kysely } from "kysely";
import type { DatabaseSchema } from "../schema.js";
import { SqliteApiKeyRepository } from "./sqlite-api-key-repository.js";
import { SqliteAppRepository } from "./sqlite-app-repository.js";
import { SqliteConversationRepository } from "./sqlite-conversation-repository.js";
import { SqliteDatasetRepository } from "./sqlite-dataset-repository.js";
import { SqliteDocumentRepository } from "./sqlite-document-repository.js";
import { SqliteEndUserRepository } from "./sqlite-end-user-repository.js";
import { SqliteMetadataRepository } from "./sqlite-metadata-repository.js";
import { SqliteTagRepository } from "./sqlite-tag-repository.js";
import { SqliteWorkspaceRepository } from "./sqlite-workspace-repository.js";

export function createSqliteRepositories(db: Kysely<DatabaseSchema>): Repositories {
  return {
    workspaces: new SqliteWorkspaceRepository(db),
    apiKeys: new SqliteApiKeyRepository(db),
    datasets: new SqliteDatasetRepository(db),
    documents: new SqliteDocumentRepository(db),
    metadata: new SqliteMetadataRepository(db),
    tags: new SqliteTagRepository(db),
    apps: new SqliteAppRepository(db),
    endUsers: new SqliteEndUserRepository(db),
    conversations: new SqliteConversationRepository(db),
  };
}
