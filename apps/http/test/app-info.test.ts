import type { App, AppMode } from "@service-api/domain";
import { APP_MODES } from "@service-api/domain";
import { aMember, anApp, aTag } from "@service-api/ports/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "./support/http.js";
import { issueKey, type SeededWorkspace, seedWorkspace } from "./support/seed.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
let world: SeededWorkspace;

beforeAll(async () => {
  server = await startTestServer();
  world = await seedWorkspace(server.store.repositories);
});
afterAll(() => server.stop());

const MODES = Object.keys(APP_MODES) as AppMode[];
const DISABLED = { status: 403, code: "forbidden", message: "The app's API service has been disabled." };
const INVALID_TOKEN = { status: 401, code: "unauthorized", message: "Access token is invalid" };
const NO_HEADER = {
  status: 401,
  code: "unauthorized",
  message: "Authorization header must be provided and start with 'Bearer'",
};

const info = (token?: string, query = "") => call(server.url, "GET", `/v1/info${query}`, { token });
const meta = (token?: string) => call(server.url, "GET", "/v1/meta", { token });

/** A new app of the seeded workspace (unless told), with a key. */
async function newApp(over: Partial<App> = {}, workspaceId = world.workspace.id) {
  const app = anApp(workspaceId, over);
  await server.store.repositories.apps.save(app);
  return { app, key: await issueKey(server.store.repositories, workspaceId, app.id) };
}

/** Binds these tags to the target, as the store holds bindings. */
async function bind(targetId: string, tagIds: string[], workspaceId = world.workspace.id) {
  await server.store.repositories.tags.bind(
    tagIds.map((tagId) => ({ id: crypto.randomUUID(), workspaceId, tagId, targetId, createdAt: 1 })),
  );
}

async function newTag(name: string, type: "app" | "knowledge" = "app") {
  const tag = aTag(world.workspace.id, { name, type });
  await server.store.repositories.tags.save(tag);
  return tag;
}

describe("GET /v1/info", () => {
  it.each(MODES)("answers the name, description, tags, mode and author of a %s app", async (mode) => {
    const { app, key } = await newApp({
      mode,
      name: `Helper ${mode}`,
      description: `Answers ${mode} questions.`,
      createdBy: world.member.id,
    });
    await bind(app.id, [world.appTag.id, world.knowledgeTags[0]!.id]);
    const response = await info(key);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      name: `Helper ${mode}`,
      description: `Answers ${mode} questions.`,
      tags: ["bots"],
      mode,
      author_name: "Ada Lovelace",
    });
  });

  it("answers an empty description, no tags and an empty author for an app without them", async () => {
    const response = await info(world.apps.chat.key);
    expect(response.body).toEqual({
      name: "chat app",
      description: "",
      tags: [],
      mode: "chat",
      author_name: "",
    });
  });

  it("lists the names of the app's own app tags by name, in code point order, never knowledge tags", async () => {
    const { app, key } = await newApp({ mode: "workflow" });
    const names = ["beta", "ärger", "Alpha", "alpha", "Zed", "10", "9"];
    const tags = [];
    for (const name of names) tags.push(await newTag(name));
    const knowledge = await newTag("aaa-knowledge", "knowledge");
    const elsewhere = await newTag("aaa-other-app");
    await bind(app.id, [...tags.map((tag) => tag.id), knowledge.id]);
    await bind(world.apps.workflow.id, [elsewhere.id]);
    const response = await info(key);
    expect(response.body.tags).toEqual(["10", "9", "Alpha", "Zed", "alpha", "beta", "ärger"]);
    expect((await info(world.apps.workflow.key)).body.tags).toEqual(["aaa-other-app"]);
  });

  it("follows a tag's rename, unbinding and deletion at the next read", async () => {
    const { repositories } = server.store;
    const { app, key } = await newApp({ mode: "completion" });
    const first = await newTag("first");
    const second = await newTag("second");
    const third = await newTag("third");
    await bind(app.id, [first.id, second.id, third.id]);
    expect((await info(key)).body.tags).toEqual(["first", "second", "third"]);
    await repositories.tags.rename(world.workspace.id, "app", first.id, "zz-renamed");
    expect((await info(key)).body.tags).toEqual(["second", "third", "zz-renamed"]);
    await repositories.tags.unbind(app.id, [second.id]);
    expect((await info(key)).body.tags).toEqual(["third", "zz-renamed"]);
    await repositories.tags.delete(world.workspace.id, "app", third.id);
    expect((await info(key)).body.tags).toEqual(["zz-renamed"]);
  });

  it("names the creator whatever their role, and answers an empty author for a creator who is no member", async () => {
    const { workspaces } = server.store.repositories;
    const member = aMember(world.workspace.id, { name: "Grace Hopper", role: "normal" });
    await workspaces.saveMember(member);
    const byMember = await newApp({ mode: "agent", createdBy: member.id });
    expect((await info(byMember.key)).body.author_name).toBe("Grace Hopper");
    const byNobody = await newApp({ mode: "agent", createdBy: crypto.randomUUID() });
    expect((await info(byNobody.key)).body.author_name).toBe("");
  });

  it("needs no user and ignores query parameters", async () => {
    const response = await info(world.apps["agent-chat"].key, "?user=alice&limit=0");
    expect(response.body).toEqual({
      name: "agent-chat app",
      description: "",
      tags: [],
      mode: "agent-chat",
      author_name: "",
    });
  });
});

describe("GET /v1/meta", () => {
  it.each(MODES)("answers no tool icons for a %s app", async (mode) => {
    const response = await meta(world.apps[mode].key);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ tool_icons: {} });
    expect(response.text).toBe('{"tool_icons":{}}');
  });
});

describe.each([
  ["GET /v1/info", info],
  ["GET /v1/meta", meta],
])("%s refusals", (_operation, get) => {
  it("answers 403 for an app whose API is disabled", async () => {
    const { key } = await newApp({ enableApi: false, mode: "chat" });
    expect((await get(key)).body).toEqual(DISABLED);
  });

  it("answers 403 for an app that is not in service, in Dify's words for each reason", async () => {
    const { key } = await newApp({ status: "archived", mode: "chat" });
    expect((await get(key)).body).toEqual({ ...DISABLED, message: "The app's status is abnormal." });
    const { key: disabledKey } = await newApp({ enableApi: false, mode: "chat" });
    expect((await get(disabledKey)).body).toEqual(DISABLED);
  });

  it("answers 403 forbidden for an app of an archived workspace", async () => {
    const { repositories } = server.store;
    const archived = await seedWorkspace(repositories);
    expect((await get(archived.apps.chat.key)).status).toBe(200);
    await repositories.workspaces.save({ ...archived.workspace, status: "archived" });
    // On PostgreSQL the server hears of the change when its notification arrives (decision 0009).
    await expect.poll(async () => (await get(archived.apps.chat.key)).status, { timeout: 2_000 }).toBe(403);
    const response = await get(archived.apps.chat.key);
    expect(response.body).toEqual({
      status: 403,
      code: "forbidden",
      message: "The workspace's status is archived.",
    });
    expect(response.body.message).not.toBe("");
  });

  it("answers 401 for a knowledge key, an unknown key and no key", async () => {
    expect((await get(world.datasetKey)).body).toEqual(INVALID_TOKEN);
    expect((await get(`app-${"x".repeat(40)}`)).body).toEqual(INVALID_TOKEN);
    expect((await get(undefined)).body).toEqual(NO_HEADER);
  });
});
