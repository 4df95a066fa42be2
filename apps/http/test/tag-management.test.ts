import type { Dataset, Tag } from "@service-api/domain";
import { aDataset, anApp, aTag, aWorkspace } from "@service-api/ports/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiResponse, call, type RequestOptions } from "./support/http.js";
import { issueKey } from "./support/seed.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const INVALID_JSON = "Invalid JSON payload received or JSON payload is empty.";
const NOT_JSON =
  "Did not attempt to load JSON data because the request Content-Type was not 'application/json'.";
const BLANK = "name: Name must not be blank.";
const LENGTH = "name: Name must be between 1 to 50 characters.";
/** A name no store holds as sent: PostgreSQL refuses NUL; UTF-8 has no lone surrogate. */
const UNSTORABLE = "name: Name must not contain NUL characters or unpaired surrogates.";
const TAKEN = "Tag name already exists";

const error = (status: number, code: string, message: unknown) => ({ status, code, message });
const invalidParam = (message: unknown) => error(400, "invalid_param", message);
const badJson = error(400, "bad_request", INVALID_JSON);
const unsupportedMediaType = error(415, "unsupported_media_type", NOT_JSON);
const tagNotFound = error(404, "not_found", "Tag not found");
const targetNotFound = error(404, "not_found", "Dataset not found");
const datasetNotFound = error(404, "not_found", "Dataset not found.");

/** A workspace of its own for each test: a knowledge key and one dataset. */
interface Tenant {
  workspaceId: string;
  key: string;
  dataset: Dataset;
}

async function aTenant(): Promise<Tenant> {
  const { repositories } = server.store;
  const workspace = aWorkspace();
  await repositories.workspaces.save(workspace);
  const dataset = aDataset(workspace.id);
  await repositories.datasets.save(dataset);
  return { workspaceId: workspace.id, key: await issueKey(repositories, workspace.id), dataset };
}

async function aDatasetOf(tenant: Tenant, over: Partial<Dataset> = {}): Promise<Dataset> {
  const dataset = aDataset(tenant.workspaceId, over);
  await server.store.repositories.datasets.save(dataset);
  return dataset;
}

async function aStoredTag(tenant: Tenant, over: Partial<Tag> = {}): Promise<Tag> {
  const tag = aTag(tenant.workspaceId, { createdAt: 100, ...over });
  await server.store.repositories.tags.save(tag);
  return tag;
}

/** A binding made in the store directly, for pairs the API never makes (an app tag on a dataset). */
async function storeBinding(tenant: Tenant, tagId: string, targetId: string) {
  await server.store.repositories.tags.bind([
    { id: crypto.randomUUID(), workspaceId: tenant.workspaceId, tagId, targetId, createdAt: 1 },
  ]);
}

const api = (method: string, path: string, options: RequestOptions = {}) =>
  call(server.url, method, path, options);
const listTags = (key: string) => api("GET", "/v1/datasets/tags", { token: key });
const createTag = (key: string, body: unknown) => api("POST", "/v1/datasets/tags", { token: key, body });
const renameTag = (key: string, body: unknown) => api("PATCH", "/v1/datasets/tags", { token: key, body });
const deleteTag = (key: string, query: string, options: RequestOptions = {}) =>
  api("DELETE", `/v1/datasets/tags${query}`, { token: key, ...options });
const unbind = (key: string, body: unknown) =>
  api("POST", "/v1/datasets/tags/unbinding", { token: key, body });
const datasetTags = (key: string, datasetId: string) =>
  api("GET", `/v1/datasets/${datasetId}/tags`, { token: key });

async function bind(tenant: Tenant, tagIds: string[], targetId = tenant.dataset.id) {
  const response = await api("POST", "/v1/datasets/tags/binding", {
    token: tenant.key,
    body: { tag_ids: tagIds, target_id: targetId },
  });
  expect(response.status).toBe(204);
}

/** A raw body with a content type of our choosing (none at all when `contentType` is undefined). */
const raw = (text: string, contentType?: string): RequestOptions => ({
  rawBody: new TextEncoder().encode(text),
  headers: contentType === undefined ? {} : { "content-type": contentType },
});

const tagObject = (tag: Pick<Tag, "id" | "name">, bindingCount = 0) => ({
  id: tag.id,
  name: tag.name,
  type: "knowledge",
  binding_count: String(bindingCount),
});

/** Everything a tag request could write for the tenant: its tags, their counts, the dataset's bindings. */
async function stateOf(tenant: Tenant, ...datasetIds: string[]) {
  const { tags } = server.store.repositories;
  return {
    tags: await tags.listInWorkspace(tenant.workspaceId),
    counted: await tags.listCounted(tenant.workspaceId, "knowledge"),
    bindings: await Promise.all([tenant.dataset.id, ...datasetIds].map((id) => tags.boundTagIds(id))),
  };
}

function expectError(response: ApiResponse, expected: { status: number; code: string; message: unknown }) {
  expect({ status: response.status, body: response.body }).toEqual({
    status: expected.status,
    body: expected,
  });
}

describe("GET /v1/datasets/tags", () => {
  it("lists the workspace's knowledge tags newest first, then by id, with binding counts as strings", async () => {
    const tenant = await aTenant();
    const [lowId, highId] = [crypto.randomUUID(), crypto.randomUUID()].sort();
    const newest = await aStoredTag(tenant, { name: "newest", createdAt: 300 });
    const tiedHigh = await aStoredTag(tenant, { id: highId, name: "tied high", createdAt: 200 });
    const tiedLow = await aStoredTag(tenant, { id: lowId, name: "tied low", createdAt: 200 });
    const oldest = await aStoredTag(tenant, { name: "oldest", createdAt: 50 });
    await aStoredTag(tenant, { name: "bots", type: "app", createdAt: 400 });
    const stranger = await aTenant();
    await aStoredTag(stranger, { name: "elsewhere", createdAt: 500 });
    const second = await aDatasetOf(tenant);
    await bind(tenant, [tiedHigh.id, newest.id]);
    await bind(tenant, [tiedHigh.id], second.id);

    const response = await listTags(tenant.key);

    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      tagObject(newest, 1),
      tagObject(tiedLow, 0),
      tagObject(tiedHigh, 2),
      tagObject(oldest, 0),
    ]);
  });

  it("answers an empty array for a workspace without knowledge tags", async () => {
    const tenant = await aTenant();
    await aStoredTag(tenant, { name: "bots", type: "app" });
    const response = await listTags(tenant.key);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });

  it("counts a binding right after it is made and drops it right after it is unmade", async () => {
    const tenant = await aTenant();
    const tag = await aStoredTag(tenant, { name: "counted" });
    const second = await aDatasetOf(tenant);
    await bind(tenant, [tag.id]);
    await bind(tenant, [tag.id], second.id);
    expect((await listTags(tenant.key)).body).toEqual([tagObject(tag, 2)]);
    expect((await unbind(tenant.key, { tag_ids: [tag.id], target_id: second.id })).status).toBe(204);
    expect((await listTags(tenant.key)).body).toEqual([tagObject(tag, 1)]);
  });
});

describe("POST /v1/datasets/tags", () => {
  it('creates a knowledge tag and answers 200 with it, binding_count "0", first in the list', async () => {
    const tenant = await aTenant();
    const older = await aStoredTag(tenant, { name: "older" });

    const response = await createTag(tenant.key, { name: "finance" });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: expect.stringMatching(UUID),
      name: "finance",
      type: "knowledge",
      binding_count: "0",
    });
    expect((await listTags(tenant.key)).body).toEqual([response.body, tagObject(older)]);
  });

  it.each([
    [" Finance  ", "leading and trailing spaces"],
    ["x".repeat(50), "50 ASCII characters"],
    ["😀".repeat(50), "50 emoji (one code point each)"],
    ["a", "one character"],
  ])("stores the name %j exactly as sent (%s)", async (name) => {
    const tenant = await aTenant();
    const response = await createTag(tenant.key, { name });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(tagObject({ id: response.body.id, name }));
    expect(
      await server.store.repositories.tags.findInWorkspace(tenant.workspaceId, "knowledge", response.body.id),
    ).toMatchObject({ name, type: "knowledge", bindingCount: 0 });
  });

  it.each([
    ["", BLANK],
    ["   ", BLANK],
    ["\t\n\r", BLANK],
    ["\u00a0\u3000\ufeff", BLANK],
    [" ".repeat(60), BLANK],
    ["x".repeat(51), LENGTH],
    ["😀".repeat(51), LENGTH],
    ["a\u0000b", UNSTORABLE],
    ["q\ud800", UNSTORABLE],
    ["q\udc00", UNSTORABLE],
  ])("refuses the name %j with 400 invalid_param, creating nothing", async (name, message) => {
    const tenant = await aTenant();
    await aStoredTag(tenant, { name: "kept" });
    const before = await stateOf(tenant);
    expectError(await createTag(tenant.key, { name }), invalidParam(message));
    expect(await stateOf(tenant)).toEqual(before);
  });

  it("refuses a name the workspace's knowledge tags already have with 400 Tag name already exists", async () => {
    const tenant = await aTenant();
    const taken = await aStoredTag(tenant, { name: "finance" });
    await bind(tenant, [taken.id]);
    const before = await stateOf(tenant);
    expectError(await createTag(tenant.key, { name: "finance" }), invalidParam(TAKEN));
    expect(await stateOf(tenant)).toEqual(before);
  });

  it("refuses a duplicate made through the API too", async () => {
    const tenant = await aTenant();
    expect((await createTag(tenant.key, { name: "twice" })).status).toBe(200);
    expectError(await createTag(tenant.key, { name: "twice" }), invalidParam(TAKEN));
    expect((await listTags(tenant.key)).body).toHaveLength(1);
  });

  it("takes a name that differs only in case or spacing, an app tag's name, or another workspace's", async () => {
    const tenant = await aTenant();
    await aStoredTag(tenant, { name: "finance" });
    await aStoredTag(tenant, { name: "bots", type: "app" });
    const stranger = await aTenant();
    await aStoredTag(stranger, { name: "legal" });
    for (const name of ["Finance", "finance ", "bots", "legal"]) {
      const response = await createTag(tenant.key, { name });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ name, type: "knowledge", binding_count: "0" });
    }
    expect((await listTags(tenant.key)).body).toHaveLength(5);
  });

  it("checks the length before the duplicate", async () => {
    const tenant = await aTenant();
    const long = "y".repeat(51);
    await aStoredTag(tenant, { name: long });
    expectError(await createTag(tenant.key, { name: long }), invalidParam(LENGTH));
  });

  it("ignores unknown fields", async () => {
    const tenant = await aTenant();
    const response = await createTag(tenant.key, { name: "extra", type: "app", color: "red" });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ name: "extra", type: "knowledge" });
  });

  it.each([
    [{}, /^name: /],
    [{ name: null }, /^name: /],
    [{ name: 5 }, /^name: /],
    [{ name: ["finance"] }, /^name: /],
    [["finance"], /^body: /],
  ])("answers 400 invalid_param for the body %j, creating nothing", async (body, message) => {
    const tenant = await aTenant();
    const before = await stateOf(tenant);
    expectError(await createTag(tenant.key, body), invalidParam(expect.stringMatching(message)));
    expect(await stateOf(tenant)).toEqual(before);
  });

  it.each([
    ["text/plain", '{"name":"finance"}'],
    ["application/x-www-form-urlencoded", "name=finance"],
    [undefined, '{"name":"finance"}'],
  ])("answers 415 for the content type %s, creating nothing", async (contentType, text) => {
    const tenant = await aTenant();
    const response = await api("POST", "/v1/datasets/tags", { token: tenant.key, ...raw(text, contentType) });
    expectError(response, unsupportedMediaType);
    expect((await listTags(tenant.key)).body).toEqual([]);
  });

  it("answers 415 before looking at the name", async () => {
    const tenant = await aTenant();
    const response = await api("POST", "/v1/datasets/tags", {
      token: tenant.key,
      ...raw('{"name":"   "}', "text/plain"),
    });
    expectError(response, unsupportedMediaType);
  });

  it.each([
    ["an empty body", ""],
    ["broken JSON", '{"name":'],
  ])("answers 400 bad_request for %s, creating nothing", async (_case, text) => {
    const tenant = await aTenant();
    const response = await api("POST", "/v1/datasets/tags", {
      token: tenant.key,
      ...raw(text, "application/json"),
    });
    expectError(response, badJson);
    expect((await listTags(tenant.key)).body).toEqual([]);
  });

  it("accepts a JSON content type with parameters", async () => {
    const tenant = await aTenant();
    const response = await api("POST", "/v1/datasets/tags", {
      token: tenant.key,
      ...raw('{"name":"charset"}', "application/json; charset=utf-8"),
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ name: "charset" });
  });
});

describe("PATCH /v1/datasets/tags", () => {
  it("renames the tag and answers 200 with it and its current binding_count", async () => {
    const tenant = await aTenant();
    const tag = await aStoredTag(tenant, { name: "finance" });
    const second = await aDatasetOf(tenant);
    await bind(tenant, [tag.id]);
    await bind(tenant, [tag.id], second.id);

    const response = await renameTag(tenant.key, { tag_id: tag.id, name: " Money 💰 " });

    expect(response.status).toBe(200);
    expect(response.body).toEqual(tagObject({ id: tag.id, name: " Money 💰 " }, 2));
    expect((await listTags(tenant.key)).body).toEqual([response.body]);
    expect((await datasetTags(tenant.key, second.id)).body).toEqual({
      data: [{ id: tag.id, name: " Money 💰 " }],
      total: 1,
    });
  });

  it("succeeds, changing nothing, when the tag keeps its own name", async () => {
    const tenant = await aTenant();
    const tag = await aStoredTag(tenant, { name: "finance" });
    await bind(tenant, [tag.id]);
    const response = await renameTag(tenant.key, { tag_id: tag.id, name: "finance" });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(tagObject(tag, 1));
    expect((await listTags(tenant.key)).body).toEqual([tagObject(tag, 1)]);
  });

  it("finds the tag whatever the case of its id", async () => {
    const tenant = await aTenant();
    const tag = await aStoredTag(tenant, { name: "finance" });
    const response = await renameTag(tenant.key, { tag_id: tag.id.toUpperCase(), name: "renamed" });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(tagObject({ id: tag.id, name: "renamed" }));
  });

  it("takes a name that differs only in case, an app tag's name, or another workspace's", async () => {
    const tenant = await aTenant();
    const tag = await aStoredTag(tenant, { name: "finance" });
    await aStoredTag(tenant, { name: "legal" });
    await aStoredTag(tenant, { name: "bots", type: "app" });
    const stranger = await aTenant();
    await aStoredTag(stranger, { name: "elsewhere" });
    for (const name of ["Legal", "bots", "elsewhere"]) {
      const response = await renameTag(tenant.key, { tag_id: tag.id, name });
      expect(response.status).toBe(200);
      expect(response.body).toEqual(tagObject({ id: tag.id, name }));
    }
  });

  it("refuses another knowledge tag's name with 400 Tag name already exists, renaming nothing", async () => {
    const tenant = await aTenant();
    const tag = await aStoredTag(tenant, { name: "finance" });
    await aStoredTag(tenant, { name: "legal" });
    const before = await stateOf(tenant);
    expectError(await renameTag(tenant.key, { tag_id: tag.id, name: "legal" }), invalidParam(TAKEN));
    expect(await stateOf(tenant)).toEqual(before);
  });

  it.each([
    ["an app tag", "app"],
    ["another workspace's tag", "foreign"],
    ["an unknown id", "unknown"],
    ["an id that is not a UUID", "not-a-uuid"],
    ["an empty id", ""],
  ])("answers 404 Tag not found for %s, renaming nothing", async (_case, which) => {
    const tenant = await aTenant();
    await aStoredTag(tenant, { name: "finance" });
    const appTag = await aStoredTag(tenant, { name: "bots", type: "app" });
    const stranger = await aTenant();
    const foreign = await aStoredTag(stranger, { name: "foreign" });
    const tagId = { app: appTag.id, foreign: foreign.id, unknown: crypto.randomUUID() }[which] ?? which;
    const before = await stateOf(tenant);
    expectError(await renameTag(tenant.key, { tag_id: tagId, name: "renamed" }), tagNotFound);
    expect(await stateOf(tenant)).toEqual(before);
    expect(await server.store.repositories.tags.listInWorkspace(stranger.workspaceId)).toEqual([foreign]);
  });

  it.each([
    ["", BLANK],
    [" \t ", BLANK],
    ["x".repeat(51), LENGTH],
    ["😀".repeat(51), LENGTH],
    ["a\u0000b", UNSTORABLE],
    ["\udfffq", UNSTORABLE],
  ])("refuses the name %j with 400 invalid_param, renaming nothing", async (name, message) => {
    const tenant = await aTenant();
    const tag = await aStoredTag(tenant, { name: "finance" });
    const before = await stateOf(tenant);
    expectError(await renameTag(tenant.key, { tag_id: tag.id, name }), invalidParam(message));
    expect(await stateOf(tenant)).toEqual(before);
  });

  it("accepts a name of 50 emoji", async () => {
    const tenant = await aTenant();
    const tag = await aStoredTag(tenant, { name: "finance" });
    const name = "😀".repeat(50);
    const response = await renameTag(tenant.key, { tag_id: tag.id, name });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(tagObject({ id: tag.id, name }));
  });

  it("checks the name's rules before looking for the tag", async () => {
    const tenant = await aTenant();
    const unknown = crypto.randomUUID();
    expectError(await renameTag(tenant.key, { tag_id: unknown, name: "  " }), invalidParam(BLANK));
    expectError(await renameTag(tenant.key, { tag_id: unknown, name: "x".repeat(51) }), invalidParam(LENGTH));
    expectError(
      await renameTag(tenant.key, { tag_id: unknown }),
      invalidParam(expect.stringMatching(/^name: /)),
    );
  });

  it("looks for the tag before the duplicate: an unknown tag under a taken name is 404", async () => {
    const tenant = await aTenant();
    await aStoredTag(tenant, { name: "taken" });
    expectError(await renameTag(tenant.key, { tag_id: crypto.randomUUID(), name: "taken" }), tagNotFound);
  });

  it.each([
    ["no tag_id", () => ({ name: "renamed" }), /^tag_id: /],
    ["a number as tag_id", () => ({ tag_id: 5, name: "renamed" }), /^tag_id: /],
    ["a null tag_id", () => ({ tag_id: null, name: "renamed" }), /^tag_id: /],
    ["a number as name", (tag: Tag) => ({ tag_id: tag.id, name: 5 }), /^name: /],
    ["no name", (tag: Tag) => ({ tag_id: tag.id }), /^name: /],
    ["a body that is not an object", () => [], /^body: /],
  ])("answers 400 invalid_param for %s, renaming nothing", async (_case, body, message) => {
    const tenant = await aTenant();
    const tag = await aStoredTag(tenant, { name: "finance" });
    const before = await stateOf(tenant);
    expectError(await renameTag(tenant.key, body(tag)), invalidParam(expect.stringMatching(message)));
    expect(await stateOf(tenant)).toEqual(before);
  });

  it("answers 415 for a non-JSON content type before looking at the name or the tag", async () => {
    const tenant = await aTenant();
    const tag = await aStoredTag(tenant, { name: "finance" });
    const response = await api("PATCH", "/v1/datasets/tags", {
      token: tenant.key,
      ...raw(JSON.stringify({ tag_id: crypto.randomUUID(), name: "" }), "text/plain"),
    });
    expectError(response, unsupportedMediaType);
    expect((await listTags(tenant.key)).body).toEqual([tagObject(tag)]);
  });

  it.each([
    ["an empty body", ""],
    ["broken JSON", '{"tag_id":"x","name":"y"'],
  ])("answers 400 bad_request for %s", async (_case, text) => {
    const tenant = await aTenant();
    const tag = await aStoredTag(tenant, { name: "finance" });
    const response = await api("PATCH", "/v1/datasets/tags", {
      token: tenant.key,
      ...raw(text, "application/json"),
    });
    expectError(response, badJson);
    expect((await listTags(tenant.key)).body).toEqual([tagObject(tag)]);
  });
});

describe("DELETE /v1/datasets/tags", () => {
  it("deletes the tag named in the query and all its bindings, leaves the datasets, and answers 204", async () => {
    const tenant = await aTenant();
    const doomed = await aStoredTag(tenant, { name: "doomed" });
    const kept = await aStoredTag(tenant, { name: "kept" });
    const second = await aDatasetOf(tenant);
    await bind(tenant, [doomed.id, kept.id]);
    await bind(tenant, [doomed.id], second.id);

    const response = await deleteTag(tenant.key, `?tag_id=${doomed.id}`);

    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expect((await listTags(tenant.key)).body).toEqual([tagObject(kept, 1)]);
    expect((await datasetTags(tenant.key, tenant.dataset.id)).body).toEqual({
      data: [{ id: kept.id, name: "kept" }],
      total: 1,
    });
    expect((await datasetTags(tenant.key, second.id)).body).toEqual({ data: [], total: 0 });
    const { tags, datasets } = server.store.repositories;
    expect(await tags.boundTagIds(tenant.dataset.id)).toEqual([kept.id]);
    expect(await tags.boundTagIds(second.id)).toEqual([]);
    expect(await datasets.findInWorkspace(tenant.workspaceId, tenant.dataset.id)).toEqual(tenant.dataset);
    expect(await datasets.findInWorkspace(tenant.workspaceId, second.id)).toEqual(second);
  });

  it("reads an empty first tag_id as none, and takes the body's, whatever follows in the query", async () => {
    const tenant = await aTenant();
    const queried = await aStoredTag(tenant, { name: "queried" });
    const bodied = await aStoredTag(tenant, { name: "bodied" });

    const response = await deleteTag(tenant.key, `?tag_id=&tag_id=${queried.id}`, {
      body: { tag_id: bodied.id },
    });

    expect(response.status).toBe(204);
    expect((await listTags(tenant.key)).body).toEqual([tagObject(queried)]);
  });

  it("reads a repeated tag_id by its first value, without reading a body", async () => {
    const tenant = await aTenant();
    const first = await aStoredTag(tenant, { name: "first" });
    const second = await aStoredTag(tenant, { name: "second" });

    const response = await deleteTag(tenant.key, `?tag_id=${first.id}&tag_id=${second.id}`);

    expect(response.status).toBe(204);
    expect((await listTags(tenant.key)).body).toEqual([tagObject(second)]);
  });

  it("lets a new tag take a deleted tag's name, unbound", async () => {
    const tenant = await aTenant();
    const doomed = await aStoredTag(tenant, { name: "reused" });
    await bind(tenant, [doomed.id]);
    expect((await deleteTag(tenant.key, `?tag_id=${doomed.id}`)).status).toBe(204);
    const response = await createTag(tenant.key, { name: "reused" });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ name: "reused", binding_count: "0" });
    expect((await datasetTags(tenant.key, tenant.dataset.id)).body).toEqual({ data: [], total: 0 });
  });

  it("reads tag_id from the JSON body when the query has none", async () => {
    const tenant = await aTenant();
    const doomed = await aStoredTag(tenant, { name: "doomed" });
    const kept = await aStoredTag(tenant, { name: "kept" });
    await bind(tenant, [doomed.id]);
    const response = await deleteTag(tenant.key, "", { body: { tag_id: doomed.id } });
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expect((await listTags(tenant.key)).body).toEqual([tagObject(kept)]);
    expect(await server.store.repositories.tags.boundTagIds(tenant.dataset.id)).toEqual([]);
  });

  it("reads the body when the query's tag_id is empty", async () => {
    const tenant = await aTenant();
    const doomed = await aStoredTag(tenant, { name: "doomed" });
    const response = await deleteTag(tenant.key, "?tag_id=", { body: { tag_id: doomed.id } });
    expect(response.status).toBe(204);
    expect((await listTags(tenant.key)).body).toEqual([]);
  });

  it("takes the query's tag_id over the body's", async () => {
    const tenant = await aTenant();
    const fromQuery = await aStoredTag(tenant, { name: "from query" });
    const fromBody = await aStoredTag(tenant, { name: "from body" });
    const response = await deleteTag(tenant.key, `?tag_id=${fromQuery.id}`, {
      body: { tag_id: fromBody.id },
    });
    expect(response.status).toBe(204);
    expect((await listTags(tenant.key)).body).toEqual([tagObject(fromBody)]);
  });

  it("answers 404 for an unknown tag in the query even when the body names a real one", async () => {
    const tenant = await aTenant();
    const real = await aStoredTag(tenant, { name: "real" });
    const response = await deleteTag(tenant.key, `?tag_id=${crypto.randomUUID()}`, {
      body: { tag_id: real.id },
    });
    expectError(response, tagNotFound);
    expect((await listTags(tenant.key)).body).toEqual([tagObject(real)]);
  });

  it.each([
    ["a non-JSON content type", raw("tag_id=whatever", "text/plain")],
    ["broken JSON", raw("{", "application/json")],
    ["an empty JSON body", raw("", "application/json")],
    ["a body without tag_id", { body: {} }],
  ])("does not read the body when the query names the tag, even with %s", async (_case, options) => {
    const tenant = await aTenant();
    const doomed = await aStoredTag(tenant, { name: "doomed" });
    const response = await deleteTag(tenant.key, `?tag_id=${doomed.id}`, options);
    expect(response.status).toBe(204);
    expect((await listTags(tenant.key)).body).toEqual([]);
  });

  it("finds the tag whatever the case of its id, in the query or the body", async () => {
    const tenant = await aTenant();
    const [first, second] = [await aStoredTag(tenant), await aStoredTag(tenant)];
    expect((await deleteTag(tenant.key, `?tag_id=${first.id.toUpperCase()}`)).status).toBe(204);
    expect((await deleteTag(tenant.key, "", { body: { tag_id: second.id.toUpperCase() } })).status).toBe(204);
    expect((await listTags(tenant.key)).body).toEqual([]);
  });

  it("answers 404 Tag not found for a tag already deleted", async () => {
    const tenant = await aTenant();
    const tag = await aStoredTag(tenant);
    expect((await deleteTag(tenant.key, `?tag_id=${tag.id}`)).status).toBe(204);
    expectError(await deleteTag(tenant.key, `?tag_id=${tag.id}`), tagNotFound);
  });

  it.each([
    ["an app tag", "app"],
    ["another workspace's tag", "foreign"],
    ["an unknown id", "unknown"],
    ["an id that is not a UUID", "not-a-uuid"],
  ])("answers 404 Tag not found for %s, in the query or the body, deleting nothing", async (_case, which) => {
    const tenant = await aTenant();
    const own = await aStoredTag(tenant, { name: "own" });
    const appTag = await aStoredTag(tenant, { name: "bots", type: "app" });
    await bind(tenant, [own.id]);
    await storeBinding(tenant, appTag.id, tenant.dataset.id);
    const stranger = await aTenant();
    const foreign = await aStoredTag(stranger, { name: "foreign" });
    await bind(stranger, [foreign.id]);
    const tagId = { app: appTag.id, foreign: foreign.id, unknown: crypto.randomUUID() }[which] ?? which;
    const before = await stateOf(tenant);
    const strangerBefore = await stateOf(stranger);

    expectError(await deleteTag(tenant.key, `?tag_id=${encodeURIComponent(tagId)}`), tagNotFound);
    expectError(await deleteTag(tenant.key, "", { body: { tag_id: tagId } }), tagNotFound);

    expect(await stateOf(tenant)).toEqual(before);
    expect(await stateOf(stranger)).toEqual(strangerBefore);
  });

  it.each([
    ["a non-JSON content type", raw('{"tag_id":"x"}', "text/plain"), unsupportedMediaType],
    ["no body and no content type", {}, unsupportedMediaType],
    ["an empty JSON body", raw("", "application/json"), badJson],
    ["broken JSON", raw('{"tag_id":', "application/json"), badJson],
    ["a body without tag_id", { body: {} }, invalidParam("tag_id: a tag id is required.")],
    ["a tag_id that is not a string", { body: { tag_id: 7 } }, invalidParam("tag_id: a tag id is required.")],
    ["a body that is not an object", { body: ["x"] }, invalidParam(expect.stringMatching(/^body: /))],
  ])("without a tag_id in the query, answers %s with its body error", async (_case, options, expected) => {
    const tenant = await aTenant();
    const tag = await aStoredTag(tenant);
    const before = await stateOf(tenant);
    expectError(await deleteTag(tenant.key, "", options as RequestOptions), expected);
    expect(await stateOf(tenant)).toEqual(before);
    expect((await listTags(tenant.key)).body).toEqual([tagObject(tag)]);
  });

  it("answers 415 for a non-JSON body naming an unknown tag: the media type comes before the lookup", async () => {
    const tenant = await aTenant();
    const response = await deleteTag(
      tenant.key,
      "",
      raw(JSON.stringify({ tag_id: crypto.randomUUID() }), "text/plain"),
    );
    expectError(response, unsupportedMediaType);
  });
});

describe("POST /v1/datasets/tags/unbinding", () => {
  it("unbinds the listed tags from the dataset, keeps the others, answers 204, and the counts follow", async () => {
    const tenant = await aTenant();
    const [a, b, c] = [
      await aStoredTag(tenant, { name: "a", createdAt: 3 }),
      await aStoredTag(tenant, { name: "b", createdAt: 2 }),
      await aStoredTag(tenant, { name: "c", createdAt: 1 }),
    ];
    const second = await aDatasetOf(tenant);
    await bind(tenant, [a.id, b.id, c.id]);
    await bind(tenant, [a.id], second.id);

    const response = await unbind(tenant.key, { tag_ids: [a.id, b.id], target_id: tenant.dataset.id });

    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expect((await datasetTags(tenant.key, tenant.dataset.id)).body).toEqual({
      data: [{ id: c.id, name: "c" }],
      total: 1,
    });
    expect((await datasetTags(tenant.key, second.id)).body).toEqual({
      data: [{ id: a.id, name: "a" }],
      total: 1,
    });
    expect((await listTags(tenant.key)).body).toEqual([tagObject(a, 1), tagObject(b, 0), tagObject(c, 1)]);
  });

  it.each([
    ["absent", {}],
    ["empty", { tag_ids: [] }],
    ["null", { tag_ids: null }],
  ])("takes the legacy tag_id when tag_ids is %s", async (_case, extra) => {
    const tenant = await aTenant();
    const [a, b] = [await aStoredTag(tenant, { name: "a" }), await aStoredTag(tenant, { name: "b" })];
    await bind(tenant, [a.id, b.id]);
    const response = await unbind(tenant.key, { ...extra, tag_id: a.id, target_id: tenant.dataset.id });
    expect(response.status).toBe(204);
    expect(await server.store.repositories.tags.boundTagIds(tenant.dataset.id)).toEqual([b.id]);
  });

  it("takes tag_ids beside a null tag_id, as clients generated from Dify's schema send it", async () => {
    const tenant = await aTenant();
    const [a, b] = [await aStoredTag(tenant, { name: "a" }), await aStoredTag(tenant, { name: "b" })];
    await bind(tenant, [a.id, b.id]);
    const response = await unbind(tenant.key, {
      tag_ids: [a.id],
      tag_id: null,
      target_id: tenant.dataset.id,
    });
    expect(response.status).toBe(204);
    expect(await server.store.repositories.tags.boundTagIds(tenant.dataset.id)).toEqual([b.id]);
  });

  it("ignores the legacy tag_id when tag_ids has ids", async () => {
    const tenant = await aTenant();
    const [a, b] = [await aStoredTag(tenant, { name: "a" }), await aStoredTag(tenant, { name: "b" })];
    await bind(tenant, [a.id, b.id]);
    const response = await unbind(tenant.key, {
      tag_ids: [a.id],
      tag_id: b.id,
      target_id: tenant.dataset.id,
    });
    expect(response.status).toBe(204);
    expect(await server.store.repositories.tags.boundTagIds(tenant.dataset.id)).toEqual([b.id]);
  });

  it("finds the tags and the dataset whatever the case of their ids", async () => {
    const tenant = await aTenant();
    const tag = await aStoredTag(tenant);
    await bind(tenant, [tag.id]);
    const response = await unbind(tenant.key, {
      tag_ids: [tag.id.toUpperCase()],
      target_id: tenant.dataset.id.toUpperCase(),
    });
    expect(response.status).toBe(204);
    expect(await server.store.repositories.tags.boundTagIds(tenant.dataset.id)).toEqual([]);
    expect((await listTags(tenant.key)).body).toEqual([tagObject(tag, 0)]);
  });

  it("ignores unknown, foreign, app and malformed tag ids and unbound pairs, answering 204 every time", async () => {
    const tenant = await aTenant();
    const own = await aStoredTag(tenant, { name: "own" });
    const unbound = await aStoredTag(tenant, { name: "unbound" });
    const appTag = await aStoredTag(tenant, { name: "bots", type: "app" });
    await bind(tenant, [own.id]);
    await storeBinding(tenant, appTag.id, tenant.dataset.id);
    const stranger = await aTenant();
    const foreign = await aStoredTag(stranger, { name: "foreign" });
    await bind(stranger, [foreign.id]);
    const before = await stateOf(tenant);
    const strangerBefore = await stateOf(stranger);
    const ids = [crypto.randomUUID(), "not-a-uuid", foreign.id, appTag.id, unbound.id];

    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await unbind(tenant.key, { tag_ids: ids, target_id: tenant.dataset.id });
      expect(response.status).toBe(204);
      expect(response.text).toBe("");
    }

    expect(await stateOf(tenant)).toEqual(before);
    expect(await stateOf(stranger)).toEqual(strangerBefore);
  });

  it("is idempotent: unbinding a pair twice answers 204 both times", async () => {
    const tenant = await aTenant();
    const tag = await aStoredTag(tenant);
    await bind(tenant, [tag.id]);
    for (let attempt = 0; attempt < 2; attempt++) {
      expect((await unbind(tenant.key, { tag_id: tag.id, target_id: tenant.dataset.id })).status).toBe(204);
    }
    expect((await listTags(tenant.key)).body).toEqual([tagObject(tag, 0)]);
  });

  it("unbinds from a dataset whose API access is off", async () => {
    const tenant = await aTenant();
    const closed = await aDatasetOf(tenant, { enableApi: false });
    const tag = await aStoredTag(tenant);
    await bind(tenant, [tag.id], closed.id);
    expect((await unbind(tenant.key, { tag_ids: [tag.id], target_id: closed.id })).status).toBe(204);
    expect(await server.store.repositories.tags.boundTagIds(closed.id)).toEqual([]);
  });

  it.each([
    ["another workspace's dataset", "foreign"],
    ["an unknown dataset", "unknown"],
    ["a target that is not a UUID", "not-a-uuid"],
  ])("answers 404 Dataset not found (no period) for %s, unbinding nothing", async (_case, which) => {
    const tenant = await aTenant();
    const tag = await aStoredTag(tenant);
    await bind(tenant, [tag.id]);
    const stranger = await aTenant();
    const foreign = await aStoredTag(stranger);
    await bind(stranger, [foreign.id]);
    const targetId = { foreign: stranger.dataset.id, unknown: crypto.randomUUID() }[which] ?? which;
    const before = await stateOf(tenant);
    const strangerBefore = await stateOf(stranger);
    expectError(
      await unbind(tenant.key, { tag_ids: [tag.id, foreign.id], target_id: targetId }),
      targetNotFound,
    );
    expect(await stateOf(tenant)).toEqual(before);
    expect(await stateOf(stranger)).toEqual(strangerBefore);
  });

  it.each([
    ["neither tag_ids nor tag_id", {}],
    ["an empty tag_ids and no tag_id", { tag_ids: [] }],
    ["an empty tag_id", { tag_id: "" }],
    ["an empty tag_ids and an empty tag_id", { tag_ids: [], tag_id: "" }],
    ["a null tag_ids and a null tag_id", { tag_ids: null, tag_id: null }],
  ])("answers 400 tag_ids: Tag IDs is required. for %s, unbinding nothing", async (_case, extra) => {
    const tenant = await aTenant();
    const tag = await aStoredTag(tenant);
    await bind(tenant, [tag.id]);
    const before = await stateOf(tenant);
    expectError(
      await unbind(tenant.key, { ...extra, target_id: tenant.dataset.id }),
      invalidParam("tag_ids: Tag IDs is required."),
    );
    expect(await stateOf(tenant)).toEqual(before);
  });

  it("checks the fields before the dataset: no tag ids and an unknown target is 400", async () => {
    const tenant = await aTenant();
    expectError(
      await unbind(tenant.key, { target_id: crypto.randomUUID() }),
      invalidParam("tag_ids: Tag IDs is required."),
    );
    expectError(
      await unbind(tenant.key, { tag_ids: [crypto.randomUUID()] }),
      invalidParam(expect.stringMatching(/^target_id: /)),
    );
  });

  it.each([
    ["no target_id", () => ({ tag_ids: ["x"] }), /^target_id: /],
    ["a number as target_id", () => ({ tag_ids: ["x"], target_id: 5 }), /^target_id: /],
    ["a string as tag_ids", (dataset: Dataset) => ({ tag_ids: "x", target_id: dataset.id }), /^tag_ids: /],
    ["numbers in tag_ids", (dataset: Dataset) => ({ tag_ids: [1], target_id: dataset.id }), /^tag_ids\.0: /],
    ["a body that is not an object", () => ["x"], /^body: /],
  ])("answers 400 invalid_param for %s, unbinding nothing", async (_case, body, message) => {
    const tenant = await aTenant();
    const tag = await aStoredTag(tenant);
    await bind(tenant, [tag.id]);
    const before = await stateOf(tenant);
    expectError(await unbind(tenant.key, body(tenant.dataset)), invalidParam(expect.stringMatching(message)));
    expect(await stateOf(tenant)).toEqual(before);
  });

  it("answers 415 for a non-JSON content type before looking at the fields or the dataset", async () => {
    const tenant = await aTenant();
    const tag = await aStoredTag(tenant);
    await bind(tenant, [tag.id]);
    const before = await stateOf(tenant);
    for (const text of ["{}", JSON.stringify({ tag_ids: [tag.id], target_id: tenant.dataset.id })]) {
      const response = await api("POST", "/v1/datasets/tags/unbinding", {
        token: tenant.key,
        ...raw(text, "text/plain"),
      });
      expectError(response, unsupportedMediaType);
    }
    expect(await stateOf(tenant)).toEqual(before);
  });

  it.each([
    ["an empty body", ""],
    ["broken JSON", "{tag_ids:[]}"],
  ])("answers 400 bad_request for %s", async (_case, text) => {
    const tenant = await aTenant();
    const response = await api("POST", "/v1/datasets/tags/unbinding", {
      token: tenant.key,
      ...raw(text, "application/json"),
    });
    expectError(response, badJson);
  });
});

describe("GET /v1/datasets/{dataset_id}/tags", () => {
  it("lists the dataset's knowledge tags by name in code point order, with their total", async () => {
    const tenant = await aTenant();
    // UTF-16 order would put the emoji (a surrogate pair) before the fullwidth letter.
    const names = ["ｚ", "b", "😀", "é", "B", "a", "Z"];
    const tags: Tag[] = [];
    for (const name of names) tags.push(await aStoredTag(tenant, { name }));
    await bind(
      tenant,
      tags.map((tag) => tag.id),
    );
    const appTag = await aStoredTag(tenant, { name: "A app tag", type: "app" });
    await storeBinding(tenant, appTag.id, tenant.dataset.id);
    const elsewhere = await aStoredTag(tenant, { name: "0 elsewhere" });
    await bind(tenant, [elsewhere.id], (await aDatasetOf(tenant)).id);
    const byName = (name: string) => tags.find((tag) => tag.name === name)!;

    const response = await datasetTags(tenant.key, tenant.dataset.id);

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: ["B", "Z", "a", "b", "é", "ｚ", "😀"].map((name) => ({ id: byName(name).id, name })),
      total: 7,
    });
  });

  it("answers an empty list for a dataset without tags", async () => {
    const tenant = await aTenant();
    await aStoredTag(tenant);
    const response = await datasetTags(tenant.key, tenant.dataset.id);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: [], total: 0 });
  });

  it("finds the dataset whatever the case of its id", async () => {
    const tenant = await aTenant();
    const tag = await aStoredTag(tenant, { name: "finance" });
    await bind(tenant, [tag.id]);
    const response = await datasetTags(tenant.key, tenant.dataset.id.toUpperCase());
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: [{ id: tag.id, name: "finance" }], total: 1 });
  });

  it.each([
    ["another workspace's dataset", "foreign"],
    ["an unknown dataset", "unknown"],
    ["an id that is not a UUID", "not-a-uuid"],
  ])("answers 404 Dataset not found. for %s", async (_case, which) => {
    const tenant = await aTenant();
    const stranger = await aTenant();
    const datasetId = { foreign: stranger.dataset.id, unknown: crypto.randomUUID() }[which] ?? which;
    expectError(await datasetTags(tenant.key, datasetId), datasetNotFound);
  });

  it("answers 403 when the dataset's API access is off", async () => {
    const tenant = await aTenant();
    const closed = await aDatasetOf(tenant, { enableApi: false });
    const tag = await aStoredTag(tenant);
    await bind(tenant, [tag.id], closed.id);
    expectError(
      await datasetTags(tenant.key, closed.id),
      error(403, "forbidden", "Dataset api access is not enabled."),
    );
  });
});

describe("authentication of the tag operations", () => {
  const operations = [
    ["GET /datasets/tags", "GET", () => "/v1/datasets/tags", undefined],
    ["POST /datasets/tags", "POST", () => "/v1/datasets/tags", () => ({ name: "intruder" })],
    ["PATCH /datasets/tags", "PATCH", () => "/v1/datasets/tags", (t: Tag) => ({ tag_id: t.id, name: "x" })],
    ["DELETE /datasets/tags", "DELETE", (t: Tag) => `/v1/datasets/tags?tag_id=${t.id}`, undefined],
    [
      "POST /datasets/tags/unbinding",
      "POST",
      () => "/v1/datasets/tags/unbinding",
      (t: Tag, d: Dataset) => ({ tag_ids: [t.id], target_id: d.id }),
    ],
    ["GET /datasets/{id}/tags", "GET", (_t: Tag, d: Dataset) => `/v1/datasets/${d.id}/tags`, undefined],
  ] as const;

  it.each(operations)(
    "%s answers 401 without a key, with an app key or a wrong key, writing nothing",
    async (_name, method, path, body) => {
      const tenant = await aTenant();
      const tag = await aStoredTag(tenant, { name: "finance" });
      await bind(tenant, [tag.id]);
      const app = anApp(tenant.workspaceId);
      await server.store.repositories.apps.save(app);
      const appKey = await issueKey(server.store.repositories, tenant.workspaceId, app.id);
      const before = await stateOf(tenant);
      const request = (headers: Record<string, string>) =>
        api(method, path(tag, tenant.dataset), {
          headers,
          ...(body && { body: body(tag, tenant.dataset) }),
        });

      expectError(
        await request({}),
        error(401, "unauthorized", "Authorization header must be provided and start with 'Bearer'"),
      );
      expectError(
        await request({ authorization: `Basic ${tenant.key}` }),
        error(401, "unauthorized", "Authorization scheme must be 'Bearer'"),
      );
      for (const token of [appKey, `${tenant.key}x`, "ds-not-a-real-key"]) {
        expectError(
          await request({ authorization: `Bearer ${token}` }),
          error(401, "unauthorized", "Access token is invalid"),
        );
      }
      expect(await stateOf(tenant)).toEqual(before);
    },
  );

  it("accepts the scheme in any case", async () => {
    const tenant = await aTenant();
    const response = await api("GET", "/v1/datasets/tags", {
      headers: { authorization: `bearer ${tenant.key}` },
    });
    expect(response.status).toBe(200);
  });

  it("checks the key before the body's media type and before the dataset in the path", async () => {
    const unauthorized = error(401, "unauthorized", "Access token is invalid");
    const token = "ds-not-a-real-key";
    expectError(
      await api("POST", "/v1/datasets/tags", { token, ...raw("name", "text/plain") }),
      unauthorized,
    );
    expectError(
      await api("PATCH", "/v1/datasets/tags", { token, ...raw("", "application/json") }),
      unauthorized,
    );
    expectError(await api("DELETE", "/v1/datasets/tags", { token }), unauthorized);
    expectError(await api("POST", "/v1/datasets/tags/unbinding", { token, body: {} }), unauthorized);
    expectError(await api("GET", `/v1/datasets/${crypto.randomUUID()}/tags`, { token }), unauthorized);
  });

  it("answers 403 for a knowledge key of an archived workspace, before looking at the dataset", async () => {
    const tenant = await aTenant();
    await server.store.repositories.workspaces.save({
      id: tenant.workspaceId,
      name: "Acme",
      status: "archived",
    });
    const archived = error(403, "forbidden", "The workspace is archived.");
    // On PostgreSQL a grant kept for the key goes when the notification arrives (decision 0009).
    await expect
      .poll(async () => (await datasetTags(tenant.key, tenant.dataset.id)).status, { timeout: 2_000 })
      .toBe(403);
    expectError(await datasetTags(tenant.key, tenant.dataset.id), archived);
    expectError(await datasetTags(tenant.key, crypto.randomUUID()), archived);
  });

  it("answers 403 for an archived workspace on every tag operation, and writes nothing", async () => {
    const tenant = await aTenant();
    const tag = await aStoredTag(tenant, { name: "kept" });
    await bind(tenant, [tag.id]);
    const before = await stateOf(tenant);
    await server.store.repositories.workspaces.save({
      id: tenant.workspaceId,
      name: "Acme",
      status: "archived",
    });
    const archived = error(403, "forbidden", "The workspace is archived.");
    const token = tenant.key;
    // The server kept the key's grant when binding; on PostgreSQL it hears of the archive when the
    // notification arrives, a moment after the change commits (decision 0009).
    await expect.poll(async () => (await listTags(token)).status, { timeout: 2_000 }).toBe(403);
    expectError(await listTags(token), archived);
    expectError(await createTag(token, { name: "new" }), archived);
    expectError(await renameTag(token, { tag_id: tag.id, name: "renamed" }), archived);
    expectError(await deleteTag(token, `?tag_id=${tag.id}`), archived);
    expectError(
      await api("POST", "/v1/datasets/tags/binding", {
        token,
        body: { tag_ids: [tag.id], target_id: tenant.dataset.id },
      }),
      archived,
    );
    expectError(await unbind(token, { tag_ids: [tag.id], target_id: tenant.dataset.id }), archived);
    expect(await stateOf(tenant)).toEqual(before);
  });
});
