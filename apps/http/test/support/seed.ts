import { generateApiKeyToken, Sha256TokenHasher } from "@service-api/adapters-node";
import type { AppMode, Dataset, Document } from "@service-api/domain";
import { APP_MODES, displayPrefixOf } from "@service-api/domain";
import type { Repositories } from "@service-api/ports";
import {
  aChunk,
  aConversation,
  aDataset,
  aDocument,
  aMember,
  aMetadataField,
  anApiKey,
  anApp,
  anEndUser,
  anUploadFile,
  aSite,
  aTag,
  aVariable,
  aWorkspace,
} from "@service-api/ports/testing";

const hasher = new Sha256TokenHasher();

/** Stores a new key for the app (or the workspace's datasets) and returns its token. */
export async function issueKey(
  repositories: Repositories,
  workspaceId: string,
  appId?: string,
): Promise<string> {
  const token = generateApiKeyToken(appId ? "app" : "dataset");
  const target = appId ? ({ kind: "app", appId } as const) : ({ kind: "dataset", appId: null } as const);
  await repositories.apiKeys.save(
    anApiKey(workspaceId, hasher.hash(token), target, { displayPrefix: displayPrefixOf(token) }),
  );
  return token;
}

/** One workspace with a knowledge base of documents, tags, and an app (with key) per mode. */
export async function seedWorkspace(repositories: Repositories) {
  const { workspaces, datasets, documents, metadata, tags, apps, endUsers, conversations } = repositories;
  const workspace = aWorkspace();
  await workspaces.save(workspace);
  const member = aMember(workspace.id, { name: "Ada Lovelace", role: "owner" });
  await workspaces.saveMember(member);

  const dataset: Dataset = aDataset(workspace.id, {
    processRule: {
      id: globalThis.crypto.randomUUID(),
      mode: "custom",
      rules: { segmentation: { max_tokens: 500 } },
    },
  });
  await datasets.save(dataset);
  const file = anUploadFile(member.id, { name: "guide.txt" });
  await documents.saveUploadFile(workspace.id, file);
  const document: Document = aDocument(dataset.id, {
    uploadFileId: file.id,
    createdBy: member.id,
    name: "guide.txt",
  });
  const second = aDocument(dataset.id, { name: "notes.md", position: 2, createdBy: member.id });
  await documents.save(document);
  await documents.save(second);
  await documents.saveChunks([
    aChunk(document.id, { content: "0123456789", hitCount: 2, position: 1 }),
    aChunk(document.id, { content: "01234", hitCount: 3, position: 2 }),
    aChunk(document.id, { content: "0123", hitCount: 0, position: 3 }),
  ]);
  const author = aMetadataField(dataset.id, { name: "author", createdAt: 1 });
  const year = aMetadataField(dataset.id, { name: "year", type: "number", createdAt: 2 });
  await metadata.saveField(author);
  await metadata.saveField(year);
  await metadata.setValue(document.id, author.id, "Ada");

  const knowledgeTags = [aTag(workspace.id, { name: "finance" }), aTag(workspace.id, { name: "legal" })];
  const appTag = aTag(workspace.id, { name: "bots", type: "app" });
  for (const tag of [...knowledgeTags, appTag]) await tags.save(tag);

  const appsByMode = {} as Record<AppMode, { id: string; key: string }>;
  for (const mode of Object.keys(APP_MODES) as AppMode[]) {
    const app = anApp(workspace.id, { mode, name: `${mode} app` });
    await apps.save(app);
    await apps.saveSite(aSite(app.id, { title: `${mode} site` }));
    appsByMode[mode] = { id: app.id, key: await issueKey(repositories, workspace.id, app.id) };
  }
  const chat = appsByMode["advanced-chat"];
  const endUser = anEndUser(chat.id, { sessionId: "alice" });
  await endUsers.save(endUser);
  await endUsers.save(anEndUser(chat.id, { sessionId: "bob" }));
  const conversation = aConversation(chat.id, endUser.id);
  await conversations.save(conversation);
  const variable = aVariable(conversation.id, { name: "user_preference", valueType: "string", value: "tea" });
  await conversations.saveVariable(variable);

  return {
    workspace,
    member,
    dataset,
    file,
    document,
    second,
    fields: { author, year },
    knowledgeTags,
    appTag,
    apps: appsByMode,
    endUser,
    conversation,
    variable,
    datasetKey: await issueKey(repositories, workspace.id),
  };
}

export type SeededWorkspace = Awaited<ReturnType<typeof seedWorkspace>>;
