import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiResponse, call } from "./support/http.js";
import { type SeededWorkspace, seedWorkspace } from "./support/seed.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

/**
 * Every management operation, called on one workspace's records ("mine") with another
 * workspace's key ("theirs"), with a key of the wrong kind and with no key: the answer is the
 * spec's, and afterwards nothing of the first workspace has changed.
 */

let server: TestServer;
let mine: SeededWorkspace;
let theirs: SeededWorkspace;
/** A knowledge tag only the first workspace has. */
let mineOnlyTagId: string;
/** The first workspace as the store holds it after seeding. */
let before: Awaited<ReturnType<typeof snapshot>>;

beforeAll(async () => {
  server = await startTestServer();
  const { repositories } = server.store;
  mine = await seedWorkspace(repositories);
  theirs = await seedWorkspace(repositories);
  // Give the first workspace something to leak: a bound knowledge tag, a bound app tag, a name only it has.
  const mineOnly = { ...mine.knowledgeTags[0]!, id: crypto.randomUUID(), name: "mine-only", createdAt: 5 };
  await repositories.tags.save(mineOnly);
  mineOnlyTagId = mineOnly.id;
  await repositories.tags.bind([
    binding(mine.knowledgeTags[0]!.id, mine.dataset.id),
    binding(mineOnly.id, mine.dataset.id),
    binding(mine.appTag.id, mine.apps.chat.id),
  ]);
  const chat = await repositories.apps.findById(mine.apps.chat.id);
  await repositories.apps.save({ ...chat!, description: "Mine only.", createdBy: mine.member.id });
  before = await snapshot(mine);
});
afterAll(() => server.stop());

const binding = (tagId: string, targetId: string) => ({
  id: crypto.randomUUID(),
  workspaceId: mine.workspace.id,
  tagId,
  targetId,
  createdAt: 1,
});

/** Everything the store holds of the workspace that these operations could read or write. */
async function snapshot(world: SeededWorkspace) {
  const { tags, datasets, documents, metadata, apps, conversations, endUsers } = server.store.repositories;
  const workspaceId = world.workspace.id;
  const datasetList = await datasets.listInWorkspace(workspaceId);
  const appList = await apps.listInWorkspace(workspaceId);
  return {
    knowledgeTags: await tags.listCounted(workspaceId, "knowledge"),
    appTags: await tags.listCounted(workspaceId, "app"),
    datasets: await Promise.all(
      datasetList.map(async (dataset) => ({
        dataset: await datasets.findInWorkspace(workspaceId, dataset.id),
        overview: await datasets.findOverview(workspaceId, dataset.id),
        tags: await tags.boundTagIds(dataset.id),
        fields: await metadata.listFieldUsage(dataset.id),
        documents: await Promise.all(
          (await documents.listInDataset(dataset.id)).map(async (document) => ({
            document,
            values: await metadata.valuesOf(document.id),
            chunks: await documents.listChunks(document.id),
            file: document.uploadFileId && (await documents.findUploadFile(document.uploadFileId)),
          })),
        ),
      })),
    ),
    apps: await Promise.all(appList.map(async (app) => ({ app, tags: await tags.boundTagIds(app.id) }))),
    conversations: await conversations.listInApp(world.apps["advanced-chat"].id),
    variables: await conversations.listVariables(world.conversation.id),
    endUsers: await Promise.all(
      ["alice", "bob", "mallory"].map((user) =>
        endUsers.findBySessionId(world.apps["advanced-chat"].id, user),
      ),
    ),
  };
}

const notFound = (message: string) => ({ status: 404, code: "not_found", message });
const DATASET_NOT_FOUND = notFound("Dataset not found.");
const INVALID_TOKEN = { status: 401, code: "unauthorized", message: "Access token is invalid" };
const NO_HEADER = {
  status: 401,
  code: "unauthorized",
  message: "Authorization header must be provided and start with 'Bearer'",
};

/** The answer a case expects: an exact status and body, or a check of its own. */
type Expected = { status: number; body?: unknown } | ((response: ApiResponse) => void | Promise<void>);

/** One request made with the other workspace's key (its knowledge key unless told). */
interface ForeignCase {
  label: string;
  token?: () => string;
  path?: () => string;
  body?: () => unknown;
  expected: () => Expected;
}

interface Operation {
  operation: string;
  /** The key the operation takes. */
  kind: "knowledge" | "app";
  method: string;
  /** The request aimed at the first workspace's records. */
  path: () => string;
  body?: () => unknown;
  foreign: ForeignCase[];
}

const status = (code: number, body?: unknown): Expected => ({ status: code, body });
const json = (value: unknown) => ({ status: 200, body: value });

/** The other workspace's knowledge tags as its list shows them. */
async function theirTags() {
  const tags = await server.store.repositories.tags.listCounted(theirs.workspace.id, "knowledge");
  return tags.map((tag) => ({
    id: tag.id,
    name: tag.name,
    type: "knowledge",
    binding_count: String(tag.bindingCount),
  }));
}

/** Ids of the first workspace's records: none may appear in another workspace's answers. */
function mineIds(): string[] {
  return [
    mine.workspace.id,
    mine.dataset.id,
    mine.document.id,
    mine.second.id,
    mine.fields.author.id,
    mine.fields.year.id,
    ...mine.knowledgeTags.map((tag) => tag.id),
    mineOnlyTagId,
    mine.appTag.id,
    mine.conversation.id,
    mine.variable.id,
    ...Object.values(mine.apps).map((app) => app.id),
  ];
}

const OPERATIONS: Operation[] = [
  {
    operation: "GET /v1/datasets/tags",
    kind: "knowledge",
    method: "GET",
    path: () => "/v1/datasets/tags",
    foreign: [
      {
        label: "lists only its own workspace's tags",
        expected: () => async (response) => {
          expect(response.status).toBe(200);
          expect(response.body).toEqual(await theirTags());
          expect(response.body.map((tag: { name: string }) => tag.name)).not.toContain("mine-only");
          for (const id of mineIds()) expect(response.text).not.toContain(id);
        },
      },
    ],
  },
  {
    operation: "POST /v1/datasets/tags",
    kind: "knowledge",
    method: "POST",
    path: () => "/v1/datasets/tags",
    body: () => ({ name: "mine-only" }),
    foreign: [
      {
        label: "creates the tag in its own workspace: a name taken in another workspace is free",
        expected: () => async (response) => {
          expect(response.body).toEqual({
            id: expect.any(String),
            name: "mine-only",
            type: "knowledge",
            binding_count: "0",
          });
          expect(response.body.id).not.toBe(mineOnlyTagId);
          const created = await server.store.repositories.tags.findInWorkspace(
            theirs.workspace.id,
            "knowledge",
            response.body.id,
          );
          expect(created?.name).toBe("mine-only");
        },
      },
    ],
  },
  {
    operation: "PATCH /v1/datasets/tags",
    kind: "knowledge",
    method: "PATCH",
    path: () => "/v1/datasets/tags",
    body: () => ({ tag_id: mine.knowledgeTags[0]!.id, name: "hijacked" }),
    foreign: [
      {
        label: "does not find another workspace's tag",
        expected: () => status(404, notFound("Tag not found")),
      },
      {
        label: "does not find it by its id in upper case either",
        body: () => ({ tag_id: mine.knowledgeTags[0]!.id.toUpperCase(), name: "hijacked" }),
        expected: () => status(404, notFound("Tag not found")),
      },
      {
        label: "does not find another workspace's app tag",
        body: () => ({ tag_id: mine.appTag.id, name: "hijacked" }),
        expected: () => status(404, notFound("Tag not found")),
      },
    ],
  },
  {
    operation: "DELETE /v1/datasets/tags",
    kind: "knowledge",
    method: "DELETE",
    path: () => `/v1/datasets/tags?tag_id=${mine.knowledgeTags[0]!.id}`,
    foreign: [
      {
        label: "does not find another workspace's tag named in the query",
        expected: () => status(404, notFound("Tag not found")),
      },
      {
        label: "does not find another workspace's tag named in the body",
        path: () => "/v1/datasets/tags",
        body: () => ({ tag_id: mine.knowledgeTags[0]!.id }),
        expected: () => status(404, notFound("Tag not found")),
      },
    ],
  },
  {
    operation: "POST /v1/datasets/tags/unbinding",
    kind: "knowledge",
    method: "POST",
    path: () => "/v1/datasets/tags/unbinding",
    body: () => ({
      tag_ids: [mine.knowledgeTags[0]!.id, theirs.knowledgeTags[0]!.id],
      target_id: mine.dataset.id,
    }),
    foreign: [
      {
        label: "does not find another workspace's dataset as target",
        expected: () => status(404, notFound("Dataset not found")),
      },
      {
        label: "does not find it with the legacy tag_id either",
        body: () => ({ tag_id: mine.knowledgeTags[0]!.id, target_id: mine.dataset.id }),
        expected: () => status(404, notFound("Dataset not found")),
      },
      {
        label: "ignores another workspace's tags when unbinding from its own dataset",
        body: () => ({ tag_ids: [mine.knowledgeTags[0]!.id, mineOnlyTagId], target_id: theirs.dataset.id }),
        expected: () => status(204),
      },
    ],
  },
  {
    operation: "GET /v1/datasets/{dataset_id}/tags",
    kind: "knowledge",
    method: "GET",
    path: () => `/v1/datasets/${mine.dataset.id}/tags`,
    foreign: [
      { label: "does not find another workspace's dataset", expected: () => status(404, DATASET_NOT_FOUND) },
      {
        label: "does not find it by its id in upper case either",
        path: () => `/v1/datasets/${mine.dataset.id.toUpperCase()}/tags`,
        expected: () => status(404, DATASET_NOT_FOUND),
      },
    ],
  },
  {
    operation: "POST /v1/datasets/{dataset_id}/metadata",
    kind: "knowledge",
    method: "POST",
    path: () => `/v1/datasets/${mine.dataset.id}/metadata`,
    body: () => ({ type: "string", name: "planted" }),
    foreign: [
      { label: "does not find another workspace's dataset", expected: () => status(404, DATASET_NOT_FOUND) },
      {
        label: "answers 404 before reading a body it would refuse",
        body: () => ({ type: "colour", name: "" }),
        expected: () => status(404, DATASET_NOT_FOUND),
      },
    ],
  },
  {
    operation: "PATCH /v1/datasets/{dataset_id}/metadata/{metadata_id}",
    kind: "knowledge",
    method: "PATCH",
    path: () => `/v1/datasets/${mine.dataset.id}/metadata/${mine.fields.author.id}`,
    body: () => ({ name: "hijacked" }),
    foreign: [
      { label: "does not find another workspace's dataset", expected: () => status(404, DATASET_NOT_FOUND) },
      {
        label: "does not find another workspace's field under its own dataset",
        path: () => `/v1/datasets/${theirs.dataset.id}/metadata/${mine.fields.author.id}`,
        expected: () => status(404, notFound("Metadata not found.")),
      },
    ],
  },
  {
    operation: "DELETE /v1/datasets/{dataset_id}/metadata/{metadata_id}",
    kind: "knowledge",
    method: "DELETE",
    path: () => `/v1/datasets/${mine.dataset.id}/metadata/${mine.fields.author.id}`,
    foreign: [
      { label: "does not find another workspace's dataset", expected: () => status(404, DATASET_NOT_FOUND) },
      {
        label: "does not find another workspace's field under its own dataset",
        path: () => `/v1/datasets/${theirs.dataset.id}/metadata/${mine.fields.author.id}`,
        expected: () => status(404, notFound("Metadata not found.")),
      },
    ],
  },
  {
    operation: "GET /v1/datasets/{dataset_id}/metadata/built-in",
    kind: "knowledge",
    method: "GET",
    path: () => `/v1/datasets/${mine.dataset.id}/metadata/built-in`,
    foreign: [
      { label: "does not find another workspace's dataset", expected: () => status(404, DATASET_NOT_FOUND) },
    ],
  },
  {
    operation: "POST /v1/datasets/{dataset_id}/metadata/built-in/enable",
    kind: "knowledge",
    method: "POST",
    path: () => `/v1/datasets/${mine.dataset.id}/metadata/built-in/enable`,
    foreign: [
      { label: "does not find another workspace's dataset", expected: () => status(404, DATASET_NOT_FOUND) },
      {
        label: "answers 404 before checking the action",
        path: () => `/v1/datasets/${mine.dataset.id}/metadata/built-in/toggle`,
        expected: () => status(404, DATASET_NOT_FOUND),
      },
    ],
  },
  {
    operation: "POST /v1/datasets/{dataset_id}/documents/metadata",
    kind: "knowledge",
    method: "POST",
    path: () => `/v1/datasets/${mine.dataset.id}/documents/metadata`,
    body: () => ({
      operation_data: [
        {
          document_id: mine.document.id,
          metadata_list: [{ id: mine.fields.author.id, name: "author", value: "Eve" }],
          partial_update: false,
        },
      ],
    }),
    foreign: [
      { label: "does not find another workspace's dataset", expected: () => status(404, DATASET_NOT_FOUND) },
      {
        label: "does not find another workspace's document under its own dataset",
        path: () => `/v1/datasets/${theirs.dataset.id}/documents/metadata`,
        expected: () => status(404, notFound("Document not found.")),
      },
      {
        label: "does not find another workspace's field for its own document, writing nothing",
        path: () => `/v1/datasets/${theirs.dataset.id}/documents/metadata`,
        body: () => ({
          operation_data: [
            {
              document_id: theirs.document.id,
              metadata_list: [{ id: mine.fields.author.id, name: "author", value: "Eve" }],
            },
          ],
        }),
        expected: () => async (response) => {
          expect(response.body).toEqual(notFound("Metadata not found."));
          expect(await server.store.repositories.metadata.valuesOf(theirs.document.id)).toEqual([
            { id: theirs.fields.author.id, name: "author", type: "string", value: "Ada" },
          ]);
        },
      },
    ],
  },
  {
    operation: "GET /v1/datasets/{dataset_id}/documents",
    kind: "knowledge",
    method: "GET",
    path: () => `/v1/datasets/${mine.dataset.id}/documents`,
    foreign: [
      { label: "does not find another workspace's dataset", expected: () => status(404, DATASET_NOT_FOUND) },
      {
        label: "answers 404 before checking the query",
        path: () => `/v1/datasets/${mine.dataset.id}/documents?page=0&status=nonsense`,
        expected: () => status(404, DATASET_NOT_FOUND),
      },
    ],
  },
  {
    operation: "DELETE /v1/datasets/{dataset_id}/documents/{document_id}",
    kind: "knowledge",
    method: "DELETE",
    path: () => `/v1/datasets/${mine.dataset.id}/documents/${mine.document.id}`,
    foreign: [
      { label: "does not find another workspace's dataset", expected: () => status(404, DATASET_NOT_FOUND) },
      {
        label: "does not find another workspace's document under its own dataset",
        path: () => `/v1/datasets/${theirs.dataset.id}/documents/${mine.document.id}`,
        expected: () => status(404, notFound("Document Not Exists.")),
      },
    ],
  },
  {
    operation: "PATCH /v1/datasets/{dataset_id}/documents/status/disable",
    kind: "knowledge",
    method: "PATCH",
    path: () => `/v1/datasets/${mine.dataset.id}/documents/status/disable`,
    body: () => ({ document_ids: [mine.document.id, mine.second.id] }),
    foreign: [
      { label: "does not find another workspace's dataset", expected: () => status(404, DATASET_NOT_FOUND) },
      {
        label: "skips another workspace's documents under its own dataset",
        path: () => `/v1/datasets/${theirs.dataset.id}/documents/status/disable`,
        expected: () => status(200, { result: "success" }),
      },
    ],
  },
  {
    operation: "GET /v1/datasets",
    kind: "knowledge",
    method: "GET",
    path: () => "/v1/datasets",
    foreign: [
      {
        label: "lists only its own workspace's datasets",
        expected: () => (response) => {
          expect(response.status).toBe(200);
          expect(response.body).toMatchObject({ page: 1, limit: 20, total: 1, has_more: false });
          expect(response.body.data.map((dataset: { id: string }) => dataset.id)).toEqual([
            theirs.dataset.id,
          ]);
          for (const id of mineIds()) expect(response.text).not.toContain(id);
        },
      },
      {
        label: "matches nothing by another workspace's tag",
        path: () => `/v1/datasets?tag_ids=${mine.knowledgeTags[0]!.id}`,
        expected: () => json({ data: [], has_more: false, limit: 20, total: 0, page: 1 }),
      },
      {
        label: "finds only its own dataset by a name both workspaces use",
        path: () => "/v1/datasets?keyword=Handbook&include_all=true",
        expected: () => (response) => {
          expect(response.body.total).toBe(1);
          expect(response.body.data.map((dataset: { id: string }) => dataset.id)).toEqual([
            theirs.dataset.id,
          ]);
        },
      },
    ],
  },
  {
    operation: "GET /v1/datasets/{dataset_id}",
    kind: "knowledge",
    method: "GET",
    path: () => `/v1/datasets/${mine.dataset.id}`,
    foreign: [
      { label: "does not find another workspace's dataset", expected: () => status(404, DATASET_NOT_FOUND) },
    ],
  },
  {
    operation: "GET /v1/conversations/{conversation_id}/variables",
    kind: "app",
    method: "GET",
    path: () => `/v1/conversations/${mine.conversation.id}/variables?user=alice`,
    foreign: [
      { label: "refuses the other workspace's knowledge key", expected: () => status(401, INVALID_TOKEN) },
      {
        label: "does not find another workspace's conversation with its app key, even for the same user",
        token: () => theirs.apps["advanced-chat"].key,
        expected: () => status(404, notFound("Conversation Not Exists.")),
      },
      {
        label: "does not take another conversation's variable as last_id of its own",
        token: () => theirs.apps["advanced-chat"].key,
        path: () =>
          `/v1/conversations/${theirs.conversation.id}/variables?user=alice&last_id=${mine.variable.id}`,
        expected: () =>
          status(400, {
            status: 400,
            code: "invalid_param",
            message: "last_id: Conversation Variable Not Exists.",
          }),
      },
    ],
  },
  {
    operation: "GET /v1/info",
    kind: "app",
    method: "GET",
    path: () => "/v1/info",
    foreign: [
      { label: "refuses the other workspace's knowledge key", expected: () => status(401, INVALID_TOKEN) },
      {
        label: "answers its own app with its app key, none of the first workspace's tags or author",
        token: () => theirs.apps.chat.key,
        expected: () => json({ name: "chat app", description: "", tags: [], mode: "chat", author_name: "" }),
      },
    ],
  },
  {
    operation: "GET /v1/meta",
    kind: "app",
    method: "GET",
    path: () => "/v1/meta",
    foreign: [
      { label: "refuses the other workspace's knowledge key", expected: () => status(401, INVALID_TOKEN) },
      {
        label: "answers its own app's meta with its app key",
        token: () => theirs.apps.chat.key,
        expected: () => json({ tool_icons: {} }),
      },
    ],
  },
];

async function check(response: ApiResponse, expected: Expected) {
  if (typeof expected === "function") return expected(response);
  expect(response.status).toBe(expected.status);
  if (expected.body === undefined) expect(response.text).toBe("");
  else expect(response.body).toEqual(expected.body);
}

describe.each(OPERATIONS)("$operation", (operation) => {
  const send = (token: string | undefined, over: Partial<ForeignCase> = {}) =>
    call(server.url, operation.method, (over.path ?? operation.path)(), {
      token,
      body: (over.body ?? operation.body)?.(),
    });

  it.each(operation.foreign)(
    "with another workspace's key: $label, changing nothing of the first",
    async (each) => {
      const response = await send((each.token ?? (() => theirs.datasetKey))(), each);
      await check(response, each.expected());
      expect(await snapshot(mine)).toEqual(before);
    },
  );

  it("answers 401 to a key of the other kind, of either workspace, changing nothing", async () => {
    const wrongKinds =
      operation.kind === "knowledge"
        ? [mine.apps["advanced-chat"].key, mine.apps.chat.key, theirs.apps.chat.key]
        : [mine.datasetKey, theirs.datasetKey];
    for (const token of wrongKinds) {
      const response = await send(token);
      expect(response.body).toEqual(INVALID_TOKEN);
    }
    expect(await snapshot(mine)).toEqual(before);
  });

  it("answers 401 without a key, changing nothing", async () => {
    expect((await send(undefined)).body).toEqual(NO_HEADER);
    expect(await snapshot(mine)).toEqual(before);
  });
});

describe("the first workspace's own keys", () => {
  it("still see every record the other workspace could not reach", async () => {
    const tags = await call(server.url, "GET", `/v1/datasets/${mine.dataset.id}/tags`, {
      token: mine.datasetKey,
    });
    expect(tags.body.total).toBe(2);
    const documents = await call(server.url, "GET", `/v1/datasets/${mine.dataset.id}/documents`, {
      token: mine.datasetKey,
    });
    expect(documents.body.total).toBe(2);
    const info = await call(server.url, "GET", "/v1/info", { token: mine.apps.chat.key });
    expect(info.body).toEqual({
      name: "chat app",
      description: "Mine only.",
      tags: ["bots"],
      mode: "chat",
      author_name: "Ada Lovelace",
    });
    const variables = await call(
      server.url,
      "GET",
      `/v1/conversations/${mine.conversation.id}/variables?user=alice`,
      {
        token: mine.apps["advanced-chat"].key,
      },
    );
    expect(variables.body.data.map((variable: { id: string }) => variable.id)).toEqual([mine.variable.id]);
  });
});
