import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "./support/http.js";
import { eventually } from "./support/load.js";
import { type SeededWorkspace, seedWorkspace } from "./support/seed.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
let world: SeededWorkspace;

beforeAll(async () => {
  server = await startTestServer();
  world = await seedWorkspace(server.store.repositories);
});
afterAll(() => server.stop());

/** One request per operation; each takes the key as its bearer token. */
const OPERATIONS = {
  "Get Document": {
    kind: "dataset",
    request: () => ["GET", `/v1/datasets/${world.dataset.id}/documents/${world.document.id}`] as const,
  },
  "List Metadata Fields": {
    kind: "dataset",
    request: () => ["GET", `/v1/datasets/${world.dataset.id}/metadata`] as const,
  },
  "Create Tag Binding": { kind: "dataset", request: () => ["POST", "/v1/datasets/tags/binding"] as const },
  "Update Conversation Variable": {
    kind: "app",
    request: () =>
      ["PUT", `/v1/conversations/${world.conversation.id}/variables/${world.variable.id}`] as const,
  },
  "Get App WebApp Settings": { kind: "app", request: () => ["GET", "/v1/site"] as const },
} as const satisfies Record<string, { kind: "app" | "dataset"; request: () => readonly [string, string] }>;

const BODIES: Record<string, unknown> = {
  POST: { tag_ids: ["x"], target_id: "y" },
  PUT: { value: "x", user: "alice" },
};

function send(name: keyof typeof OPERATIONS, headers: Record<string, string>) {
  const [method, path] = OPERATIONS[name].request();
  return call(server.url, method, path, { headers, body: BODIES[method] });
}

const unauthorized = (message: string) => ({ status: 401, code: "unauthorized", message });

describe.each(Object.keys(OPERATIONS) as (keyof typeof OPERATIONS)[])("authentication of %s", (name) => {
  const ownKey = () => (OPERATIONS[name].kind === "app" ? world.apps["advanced-chat"].key : world.datasetKey);
  const otherKindKey = () =>
    OPERATIONS[name].kind === "app" ? world.datasetKey : world.apps["advanced-chat"].key;

  it("answers 401 without an Authorization header", async () => {
    const response = await send(name, {});
    expect(response.body).toEqual(
      unauthorized("Authorization header must be provided and start with 'Bearer'"),
    );
  });

  it("answers 401 for another scheme or a malformed header, with Dify's message for each", async () => {
    // Dify: no space in the header, then the scheme (the word before the space), then the key.
    const cases = [
      ["Bearer", "Authorization header must be provided and start with 'Bearer'"],
      [ownKey(), "Authorization header must be provided and start with 'Bearer'"],
      [`Bearer\t${ownKey()}`, "Authorization header must be provided and start with 'Bearer'"],
      [`Basic ${ownKey()}`, "Authorization scheme must be 'Bearer'"],
      [`${ownKey()} Bearer`, "Authorization scheme must be 'Bearer'"],
      [`Bearer ${ownKey()} extra`, "Access token is invalid"],
    ];
    for (const [header, message] of cases) {
      const response = await send(name, { authorization: header! });
      expect(response.body, header).toEqual(unauthorized(message!));
    }
  });

  it("answers 401 for an unknown key", async () => {
    const unknown =
      OPERATIONS[name].kind === "app" ? "app-unknownunknownunknown" : "ds-unknownunknownunknown";
    expect((await send(name, { authorization: `Bearer ${unknown}` })).body).toEqual(
      unauthorized("Access token is invalid"),
    );
  });

  it("answers 401 for a valid key of the other kind", async () => {
    const response = await send(name, { authorization: `Bearer ${otherKindKey()}` });
    expect(response.body).toEqual(unauthorized("Access token is invalid"));
  });

  it("accepts the scheme in any case", async () => {
    const response = await send(name, { authorization: `bEaReR ${ownKey()}` });
    expect(response.status).not.toBe(401);
  });
});

describe("API keys", () => {
  it("are stored only as hashes", async () => {
    const stored = await server.store.repositories.apiKeys.findByTokenHash("anything");
    expect(stored).toBeUndefined();
    const { createHash } = await import("node:crypto");
    const key = await server.store.repositories.apiKeys.findByTokenHash(
      createHash("sha256").update(world.datasetKey).digest("hex"),
    );
    expect(key).toBeDefined();
    expect(JSON.stringify(key)).not.toContain(world.datasetKey.slice(3));
  });

  it("never appear in the logs", async () => {
    await send("Get Document", { authorization: `Bearer ${world.datasetKey}` });
    await send("Get App WebApp Settings", { authorization: `Bearer ${world.apps["advanced-chat"].key}` });
    await send("Get Document", { authorization: "Bearer ds-wrongwrongwrongwrong" });
    const logs = server.logText();
    expect(logs).toContain('"status":200');
    for (const secret of [world.datasetKey, world.apps["advanced-chat"].key, "ds-wrongwrongwrongwrong"]) {
      expect(logs).not.toContain(secret.slice(3));
    }
  });

  it("stay out of the logs when sent as a request id or pasted into the path", async () => {
    const [datasetKey, appKey] = [world.datasetKey, world.apps["advanced-chat"].key];
    const echoed = await call(server.url, "GET", "/v1/site", {
      token: appKey,
      headers: { "X-Request-Id": appKey },
    });
    expect(echoed.status).toBe(200);
    // Not echoed either: a new id instead.
    expect(echoed.headers.get("x-request-id")).not.toBe(appKey);
    await call(server.url, "GET", `/v1/${datasetKey}`, { token: datasetKey });
    await call(server.url, "GET", `/v1/datasets/${datasetKey}/documents`, { token: datasetKey });
    await call(server.url, "GET", `/v1/datasets/Bearer%20${appKey}`, { token: datasetKey });
    await call(server.url, "GET", `/v1/datasets/${datasetKey.replace("-", "%2D")}`, { token: datasetKey });
    await call(server.url, "GET", `/v1/datasets/${appKey.replace("-", "%2d")}/documents`, {
      token: datasetKey,
    });
    // Any letter percent-encoded, the prefix in capitals, the key glued to other text.
    await call(server.url, "GET", `/v1/datasets/documents/%64${datasetKey.slice(1)}`, { token: datasetKey });
    await call(
      server.url,
      "GET",
      `/v1/datasets/${appKey.slice(0, 6)}%${appKey.charCodeAt(6).toString(16)}${appKey.slice(7)}`,
      { token: datasetKey },
    );
    await call(server.url, "GET", `/v1/datasets/DS${datasetKey.slice(2)}`, { token: datasetKey });
    await call(server.url, "GET", `/v1/datasets/x${appKey}`, { token: datasetKey });
    for (const id of [`x${appKey}`, `DS${datasetKey.slice(2)}`, `trace.${datasetKey}`]) {
      const replaced = await call(server.url, "GET", "/healthz", { headers: { "X-Request-Id": id } });
      expect(replaced.headers.get("x-request-id")).not.toContain(id.slice(-40));
    }
    // An id that merely has such a word in it is kept.
    for (const id of ["uploads-42", "webapp-12", "cards-7f3a9b2c-4d5e-6f70-8192-a3b4c5d6e7f8"]) {
      const kept = await call(server.url, "GET", "/healthz", { headers: { "X-Request-Id": id } });
      expect(kept.headers.get("x-request-id")).toBe(id);
    }
    const logs = server.logText();
    expect(logs).toContain('"path":"/v1/ds-…"');
    for (const secret of [datasetKey, appKey]) expect(logs).not.toContain(secret.slice(3));
  });

  it("record when they were last used", async () => {
    const { createHash } = await import("node:crypto");
    const hash = createHash("sha256").update(world.datasetKey).digest("hex");
    await send("List Metadata Fields", { authorization: `Bearer ${world.datasetKey}` });
    // Recorded beside the request, which does not wait for it.
    await eventually(async () => {
      const key = await server.store.repositories.apiKeys.findByTokenHash(hash);
      return (key?.lastUsedAt ?? 0) > Date.now() / 1000 - 60;
    });
  });
});

describe("what a key grants, after it changed through another connection", () => {
  it("shows at the next request: an app off the API, an archived workspace, a deleted key", async () => {
    const { repositories } = server.store;
    const own = await seedWorkspace(repositories);
    const app = (await repositories.apps.findById(own.apps["advanced-chat"].id))!;
    const settings = () => call(server.url, "GET", "/v1/site", { token: own.apps["advanced-chat"].key });
    const fields = () =>
      call(server.url, "GET", `/v1/datasets/${own.dataset.id}/metadata`, { token: own.datasetKey });
    expect((await settings()).status).toBe(200);
    expect((await fields()).status).toBe(200);

    // On PostgreSQL the server hears of a change when its notification arrives, a moment after
    // the change commits (decision 0009): each answer is awaited, briefly, rather than assumed.
    const status = (request: () => Promise<{ status: number }>) =>
      expect.poll(async () => (await request()).status, { timeout: 2_000 });
    await repositories.apps.save({ ...app, enableApi: false });
    await status(settings).toBe(403);
    await repositories.apps.save(app);
    await status(settings).toBe(200);

    await repositories.workspaces.save({ ...own.workspace, status: "archived" });
    await status(fields).toBe(403);
    expect((await settings()).status).toBe(403);
    await repositories.workspaces.save(own.workspace);
    await status(fields).toBe(200);

    const [datasetKey] = (await repositories.apiKeys.list({ workspaceId: own.workspace.id })).filter(
      (key) => key.kind === "dataset",
    );
    await repositories.apiKeys.delete(datasetKey!.id);
    await status(fields).toBe(401);
  });
});
