import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Store } from "@service-api/ports";
import {
  aChunk,
  aConversation,
  aDataset,
  aDocument,
  aMember,
  aMetadataField,
  anApp,
  anEndUser,
  anUploadFile,
  aTag,
  aVariable,
  aWorkspace,
} from "@service-api/ports/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSqliteStore } from "./open-sqlite-store.js";

const directory = mkdtempSync(join(tmpdir(), "service-api-separate-"));
const sent: string[] = [];
let store: Store;
let world: Awaited<ReturnType<typeof seed>>;

async function seed({
  workspaces,
  datasets,
  documents,
  metadata,
  tags,
  apps,
  endUsers,
  conversations,
}: Store["repositories"]) {
  const workspace = aWorkspace();
  await workspaces.save(workspace);
  const member = aMember(workspace.id);
  await workspaces.saveMember(member);
  const dataset = aDataset(workspace.id);
  await datasets.save(dataset);
  const file = anUploadFile(member.id);
  await documents.saveUploadFile(workspace.id, file);
  const document = aDocument(dataset.id, { uploadFileId: file.id, createdBy: member.id });
  await documents.save(document);
  await documents.save(aDocument(dataset.id, { position: 2 }));
  await documents.saveChunks([aChunk(document.id)]);
  const field = aMetadataField(dataset.id);
  await metadata.saveField(field);
  await metadata.setValue(document.id, field.id, "v");
  const tag = aTag(workspace.id);
  await tags.save(tag);
  await tags.bind([
    { id: "b", workspaceId: workspace.id, tagId: tag.id, targetId: dataset.id, createdAt: 1 },
  ]);
  const app = anApp(workspace.id);
  await apps.save(app);
  const endUser = anEndUser(app.id);
  await endUsers.save(endUser);
  const conversation = aConversation(app.id, endUser.id);
  await conversations.save(conversation);
  const variable = aVariable(conversation.id);
  await conversations.saveVariable(variable);
  return { workspace, dataset, document, app, endUser, conversation, variable };
}

/** The table a single-table statement reads. */
const tableOf = (statement: string) => statement.match(/from "(\w+)"/)?.[1];

/** The statements `read` sends. */
async function statementsOf(read: () => Promise<unknown>): Promise<string[]> {
  sent.length = 0;
  await read();
  return [...sent];
}

beforeAll(async () => {
  store = await openSqliteStore({
    databaseUrl: join(directory, "reads.sqlite"),
    onQuery: (sql) => sent.push(sql),
  });
  world = await seed(store.repositories);
});

afterAll(async () => {
  await store.close();
  rmSync(directory, { recursive: true, force: true });
});

/**
 * SQLite reads a request's rows in separate single-table statements (`readSeparately`), each a
 * cost of its own: the statements each read sends, so none creeps in unnoticed.
 */
describe("SQLite's separate reads", () => {
  it("lists a dataset's fields in two statements: the dataset's row holds its document count", async () => {
    const { workspace, dataset } = world;
    const statements = await statementsOf(() =>
      store.repositories.metadata.findFieldUsage(workspace.id, dataset.id),
    );
    expect(statements).toHaveLength(2);
    expect(statements[0]).toMatch(/from "datasets"/);
    expect(statements[1]).toMatch(/from "metadata_fields"/);
    const found = await store.repositories.metadata.findFieldUsage(workspace.id, dataset.id);
    expect(found.documentCount).toBe(2);
    expect(found.fields.map((field) => field.count)).toEqual([1]);
  });

  it("reads nothing past a dataset that is not the workspace's", async () => {
    const statements = await statementsOf(() =>
      store.repositories.metadata.findFieldUsage(aWorkspace().id, world.dataset.id),
    );
    expect(statements).toHaveLength(1);
  });

  it("reads a document's detail in one statement for each table it shows", async () => {
    const { workspace, dataset, document } = world;
    const statements = await statementsOf(() =>
      store.repositories.documents.findDetail(workspace.id, dataset.id, document.id),
    );
    expect(statements.map(tableOf)).toEqual([
      "datasets",
      "documents",
      "upload_files",
      "chunks",
      "document_metadata_values",
      "members",
    ]);
  });

  it("reads a variable update's conversation, end user and variable in one statement each", async () => {
    const { app, endUser, conversation, variable } = world;
    const statements = await statementsOf(() =>
      store.repositories.conversations.findForVariableUpdate(
        app.id,
        endUser.sessionId,
        conversation.id,
        variable.id,
      ),
    );
    expect(statements.map(tableOf)).toEqual(["conversations", "end_users", "conversation_variables"]);
  });

  it("reads a tag binding's dataset and its tags in two statements", async () => {
    const { workspace, dataset } = world;
    const statements = await statementsOf(() =>
      store.repositories.tags.findBoundToDataset(workspace.id, dataset.id),
    );
    expect(statements).toHaveLength(2);
  });
});
