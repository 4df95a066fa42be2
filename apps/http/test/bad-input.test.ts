import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "./support/http.js";
import { RawConnection } from "./support/raw-http.js";
import { type SeededWorkspace, seedWorkspace } from "./support/seed.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
let world: SeededWorkspace;
beforeAll(async () => {
  server = await startTestServer();
  world = await seedWorkspace(server.store.repositories);
});
afterAll(() => server.stop());

const NUL = "\u0000";
const nested = (depth: number) => JSON.parse(`${"[".repeat(depth)}${"]".repeat(depth)}`) as unknown;

interface Case {
  name: string;
  method: string;
  path: () => string;
  key: () => string;
  body?: () => unknown;
  /** A body sent as this text, for JSON too deep for the test's own JSON.stringify. */
  rawBody?: () => string;
  status: number;
  expected: Record<string, unknown>;
}

const documentPath = (dataset: string, document: string) => `/v1/datasets/${dataset}/documents/${document}`;
const variablePath = (conversation: string, variable: string) =>
  `/v1/conversations/${conversation}/variables/${variable}`;
const appKey = () => world.apps["advanced-chat"].key;
const update = (
  body: () => unknown,
  status: number,
  expected: Record<string, unknown>,
): Omit<Case, "name"> => ({
  method: "PUT",
  path: () => variablePath(world.conversation.id, world.variable.id),
  key: appKey,
  body,
  status,
  expected,
});

const CASES: Case[] = [
  {
    name: "a NUL in a path's dataset id",
    method: "GET",
    path: () => documentPath(`${world.dataset.id}%00`, world.document.id),
    key: () => world.datasetKey,
    status: 404,
    expected: { code: "not_found", message: "Dataset not found." },
  },
  {
    name: "a NUL in a path's document id",
    method: "GET",
    path: () => documentPath(world.dataset.id, "%00"),
    key: () => world.datasetKey,
    status: 404,
    expected: { code: "not_found", message: "Document not found." },
  },
  {
    name: "a NUL in List Metadata Fields' dataset id",
    method: "GET",
    path: () => `/v1/datasets/${NUL}x/metadata`.replace(NUL, "%00"),
    key: () => world.datasetKey,
    status: 404,
    expected: { code: "not_found", message: "Dataset not found." },
  },
  {
    name: "a NUL in the conversation id",
    method: "PUT",
    path: () => variablePath("%00", world.variable.id),
    key: appKey,
    body: () => ({ value: "x", user: "alice" }),
    status: 404,
    expected: { code: "not_found", message: "Conversation Not Exists." },
  },
  {
    name: "a NUL in the variable id",
    method: "PUT",
    path: () => variablePath(world.conversation.id, "ab%00"),
    key: appKey,
    body: () => ({ value: "x", user: "alice" }),
    status: 404,
    expected: { code: "not_found", message: "Conversation Variable Not Exists." },
  },
  {
    name: "a NUL in the metadata query value",
    method: "GET",
    path: () => `${documentPath(world.dataset.id, world.document.id)}?metadata=%00`,
    key: () => world.datasetKey,
    status: 400,
    expected: { code: "invalid_metadata", message: `Invalid metadata value: ${NUL}` },
  },
  {
    name: "bytes that are not UTF-8 in a path",
    method: "GET",
    path: () => documentPath(world.dataset.id, "%ED%A0%80"),
    key: () => world.datasetKey,
    status: 400,
    expected: { code: "bad_request", message: "The URL is not valid." },
  },
  {
    name: "a NUL in a tag binding's target",
    method: "POST",
    path: () => "/v1/datasets/tags/binding",
    key: () => world.datasetKey,
    body: () => ({ tag_ids: [world.knowledgeTags[0]!.id], target_id: `${world.dataset.id}${NUL}` }),
    status: 404,
    expected: { code: "not_found", message: "Dataset not found" },
  },
  {
    name: "a NUL in the user",
    ...update(() => ({ value: "x", user: `ali${NUL}ce` }), 404, { message: "Conversation Not Exists." }),
  },
  {
    name: "a lone surrogate in the user",
    ...update(() => ({ value: "x", user: "\uD800alice" }), 404, { message: "Conversation Not Exists." }),
  },
  {
    name: "a value nested 100,000 levels deep",
    ...update(() => undefined, 400, {
      code: "bad_request",
      message: "The JSON body nests deeper than 64 levels.",
    }),
    rawBody: () => `{"user": "alice", "value": ${"[".repeat(100_000)}${"]".repeat(100_000)}}`,
  },
  {
    name: "a body nested 65 levels deep (the value 64)",
    ...update(() => ({ value: nested(64), user: "alice" }), 400, {
      message: "The JSON body nests deeper than 64 levels.",
    }),
  },
  {
    name: "a body nested 64 levels deep, which reaches the type check",
    ...update(() => ({ value: nested(63), user: "alice" }), 400, {
      message: "Type mismatch: variable 'user_preference' expects string, but got array[any] type",
    }),
  },
];

describe("bad input", () => {
  it.each(CASES)("answers $name with $status and writes nothing", async (testCase) => {
    const before = await server.store.repositories.conversations.findVariable(
      world.conversation.id,
      world.variable.id,
    );
    const response = await call(server.url, testCase.method, testCase.path(), {
      token: testCase.key(),
      ...(testCase.body && { body: testCase.body() }),
      ...(testCase.rawBody && {
        rawBody: testCase.rawBody(),
        headers: { "content-type": "application/json" },
      }),
    });
    expect(response.status).toBe(testCase.status);
    expect(response.body).toMatchObject({ status: testCase.status, ...testCase.expected });
    expect(
      await server.store.repositories.conversations.findVariable(world.conversation.id, world.variable.id),
    ).toEqual(before);
    expect(await server.store.repositories.tags.boundTagIds(world.dataset.id)).toEqual([]);
  });

  it("lists no dataset for a tag id with a NUL or bytes that are not UTF-8, on every store", async () => {
    const tagged = `/v1/datasets?tag_ids=${world.knowledgeTags[0]!.id}`;
    await call(server.url, "POST", "/v1/datasets/tags/binding", {
      token: world.datasetKey,
      body: { tag_ids: [world.knowledgeTags[0]!.id], target_id: world.dataset.id },
    });
    try {
      expect((await call(server.url, "GET", tagged, { token: world.datasetKey })).body.total).toBe(1);
      for (const path of [`${tagged}%00`, `${tagged}&tag_ids=%ED%A0%80x`, "/v1/datasets?tag_ids=%00"]) {
        const response = await call(server.url, "GET", path, { token: world.datasetKey });
        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({ data: [], total: 0 });
      }
    } finally {
      await server.store.repositories.tags.unbindFromDataset(world.workspace.id, world.dataset.id, [
        world.knowledgeTags[0]!.id,
      ]);
    }
  });

  it("ignores a NUL among the tags to bind, binding the rest", async () => {
    const tag = world.knowledgeTags[1]!;
    const response = await call(server.url, "POST", "/v1/datasets/tags/binding", {
      token: world.datasetKey,
      body: { tag_ids: [`${tag.id}${NUL}`, NUL, tag.id], target_id: world.dataset.id },
    });
    expect(response.status).toBe(204);
    expect(await server.store.repositories.tags.boundTagIds(world.dataset.id)).toEqual([tag.id]);
  });

  it("keeps a NUL inside a string value, as JSON keeps it, on every store", async () => {
    const response = await call(server.url, "PUT", variablePath(world.conversation.id, world.variable.id), {
      token: appKey(),
      body: { value: `tea${NUL}time`, user: "alice" },
    });
    expect(response.status).toBe(200);
    expect(response.body.value).toBe(`tea${NUL}time`);
    expect(
      (await server.store.repositories.conversations.findVariable(world.conversation.id, world.variable.id))
        ?.value,
    ).toBe(`tea${NUL}time`);
  });

  it("answers a NUL in a header 400 in the error shape", async () => {
    const connection = new RawConnection(server.url);
    const response = await connection.request("GET", "/v1/site", { Authorization: `Bearer app-${NUL}x` });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toMatchObject({ code: "bad_request" });
  });
});
