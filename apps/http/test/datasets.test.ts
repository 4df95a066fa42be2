import type { Dataset, Document, Tag } from "@service-api/domain";
import { aDataset, aDocument, aMember, aMetadataField, aTag, aWorkspace } from "@service-api/ports/testing";
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

const invalidParam = (message: string) => ({ status: 400, code: "invalid_param", message });
const DATASET_NOT_FOUND = { status: 404, code: "not_found", message: "Dataset not found." };
const API_DISABLED = { status: 403, code: "forbidden", message: "Dataset api access is not enabled." };
const PAGE_MESSAGE = "page: must be an integer of at least 1.";
const LIMIT_MESSAGE = "limit: must be an integer from 1 to 100.";
const INCLUDE_ALL_MESSAGE = "include_all: must be true or false.";

const DATASET_KEYS = [
  "id",
  "name",
  "description",
  "provider",
  "permission",
  "data_source_type",
  "indexing_technique",
  "app_count",
  "document_count",
  "word_count",
  "created_by",
  "author_name",
  "created_at",
  "updated_by",
  "updated_at",
  "embedding_model",
  "embedding_model_provider",
  "embedding_available",
  "retrieval_model_dict",
  "summary_index_setting",
  "tags",
  "doc_form",
  "external_knowledge_info",
  "external_retrieval_model",
  "doc_metadata",
  "built_in_field_enabled",
  "enable_api",
  "pipeline_id",
  "chunk_structure",
  "icon_info",
  "maintainer",
  "runtime_mode",
  "is_published",
  "is_multimodal",
  "total_documents",
  "total_available_documents",
];

const ECONOMY_RETRIEVAL = {
  search_method: "keyword_search",
  reranking_enable: false,
  reranking_mode: null,
  reranking_model: { reranking_provider_name: "", reranking_model_name: "" },
  weights: null,
  top_k: 2,
  score_threshold_enabled: false,
  score_threshold: 0,
};

/** A workspace of its own, with its owner and a knowledge key: its dataset list holds only what a test adds. */
async function freshWorkspace() {
  const { repositories } = server.store;
  const workspace = aWorkspace();
  await repositories.workspaces.save(workspace);
  const owner = aMember(workspace.id, { name: "Grace Hopper", role: "owner" });
  await repositories.workspaces.saveMember(owner);
  const key = await issueKey(repositories, workspace.id);
  const addDataset = async (over: Partial<Dataset> = {}) => {
    const dataset = aDataset(workspace.id, over);
    await repositories.datasets.save(dataset);
    return dataset;
  };
  const addDocument = async (datasetId: string, over: Partial<Document> = {}) => {
    const document = aDocument(datasetId, { createdBy: owner.id, ...over });
    await repositories.documents.save(document);
    return document;
  };
  const addTag = async (over: Partial<Tag> = {}) => {
    const tag = aTag(workspace.id, over);
    await repositories.tags.save(tag);
    return tag;
  };
  const bind = (tagIds: string[], targetId: string) =>
    repositories.tags.bind(
      tagIds.map((tagId) => ({
        id: crypto.randomUUID(),
        workspaceId: workspace.id,
        tagId,
        targetId,
        createdAt: 1_700_000_000,
      })),
    );
  const list = (query = "") => call(server.url, "GET", `/v1/datasets${query}`, { token: key });
  const listedIds = async (query = "") => {
    const response = await list(query);
    expect(response.status).toBe(200);
    return (response.body.data as { id: string }[]).map((item) => item.id);
  };
  const get = (datasetId: string) => call(server.url, "GET", `/v1/datasets/${datasetId}`, { token: key });
  return { workspace, owner, key, addDataset, addDocument, addTag, bind, list, listedIds, get };
}

describe("GET /v1/datasets", () => {
  it("lists every dataset of the workspace newest first, then by id, API access off too", async () => {
    const ws = await freshWorkspace();
    const [low, high] = [crypto.randomUUID(), crypto.randomUUID()].sort();
    const oldest = await ws.addDataset({ createdAt: 10, name: "Oldest" });
    const newest = await ws.addDataset({ createdAt: 30, name: "Newest", enableApi: false });
    await ws.addDataset({ id: high, createdAt: 20 });
    await ws.addDataset({ id: low, createdAt: 20 });
    const response = await ws.list();
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(["data", "has_more", "limit", "total", "page"]);
    expect({ ...response.body, data: response.body.data.map((item: { id: string }) => item.id) }).toEqual({
      data: [newest.id, low, high, oldest.id],
      has_more: false,
      limit: 20,
      total: 4,
      page: 1,
    });
    expect(response.body.data[0].enable_api).toBe(false);
  });

  it("never lists another workspace's datasets", async () => {
    const ws = await freshWorkspace();
    expect(await ws.list()).toMatchObject({
      status: 200,
      body: { data: [], has_more: false, limit: 20, total: 0, page: 1 },
    });
    const own = await ws.addDataset();
    expect(await ws.listedIds()).toEqual([own.id]);
    const seeded = await call(server.url, "GET", "/v1/datasets", { token: world.datasetKey });
    expect(seeded.body.data.map((item: { id: string }) => item.id)).not.toContain(own.id);
    expect(seeded.body.data.map((item: { id: string }) => item.id)).toContain(world.dataset.id);
  });

  it("pages with has_more true only while page × limit is below the total", async () => {
    const ws = await freshWorkspace();
    const ids: string[] = [];
    for (const n of [1, 2, 3, 4, 5]) ids.push((await ws.addDataset({ createdAt: 100 - n })).id);
    const page = async (query: string) => {
      const { body } = await ws.list(query);
      return { ...body, data: body.data.map((item: { id: string }) => item.id) };
    };
    expect(await page("?limit=2")).toEqual({
      data: ids.slice(0, 2),
      has_more: true,
      limit: 2,
      total: 5,
      page: 1,
    });
    expect(await page("?limit=2&page=2")).toEqual({
      data: ids.slice(2, 4),
      has_more: true,
      limit: 2,
      total: 5,
      page: 2,
    });
    expect(await page("?limit=2&page=3")).toEqual({
      data: ids.slice(4),
      has_more: false,
      limit: 2,
      total: 5,
      page: 3,
    });
    expect(await page("?limit=2&page=9")).toEqual({ data: [], has_more: false, limit: 2, total: 5, page: 9 });
    expect(await page("?limit=5")).toEqual({ data: ids, has_more: false, limit: 5, total: 5, page: 1 });
    expect(await page("?limit=100&page=01")).toEqual({
      data: ids,
      has_more: false,
      limit: 100,
      total: 5,
      page: 1,
    });
  });

  it("defaults to 20 datasets a page", async () => {
    const ws = await freshWorkspace();
    for (let n = 0; n < 21; n++) await ws.addDataset({ createdAt: 1000 - n });
    const { body } = await ws.list();
    expect([body.data.length, body.has_more, body.limit, body.page, body.total]).toEqual([
      20,
      true,
      20,
      1,
      21,
    ]);
    const second = (await ws.list("?page=2")).body;
    expect([second.data.length, second.has_more, second.page]).toEqual([1, false, 2]);
  });

  it.each(["0", "-1", "+1", "1.0", " 1", "one", "1e1"])("answers 400 for page=%j", async (value) => {
    const response = await call(server.url, "GET", `/v1/datasets?page=${encodeURIComponent(value)}`, {
      token: world.datasetKey,
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(invalidParam(PAGE_MESSAGE));
  });

  it("answers the largest exact page with an empty page, and a larger one with 400", async () => {
    const last = await call(server.url, "GET", `/v1/datasets?limit=100&page=${Number.MAX_SAFE_INTEGER}`, {
      token: world.datasetKey,
    });
    expect(last.status, last.text).toBe(200);
    expect([last.body.data, last.body.has_more]).toEqual([[], false]);
    const past = await call(server.url, "GET", "/v1/datasets?page=99999999999999999999", {
      token: world.datasetKey,
    });
    expect(past.body).toEqual(invalidParam(`page: must be an integer from 1 to ${Number.MAX_SAFE_INTEGER}.`));
  });

  it.each(["0", "101", "-1", "+1", "1.0", " 1", "all"])("answers 400 for limit=%j", async (value) => {
    const response = await call(server.url, "GET", `/v1/datasets?limit=${encodeURIComponent(value)}`, {
      token: world.datasetKey,
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(invalidParam(LIMIT_MESSAGE));
  });

  it("treats empty parameters as absent and counts a repeated one by its first value", async () => {
    const ws = await freshWorkspace();
    const alpha = await ws.addDataset({ createdAt: 3, name: "alpha" });
    const beta = await ws.addDataset({ createdAt: 2, name: "beta" });
    const alphabet = await ws.addDataset({ createdAt: 1, name: "alphabet" });
    const empty = await ws.list("?page=&limit=&keyword=&include_all=");
    expect([empty.status, empty.body.page, empty.body.limit, empty.body.total]).toEqual([200, 1, 20, 3]);
    const paged = await ws.list("?page=2&page=x&limit=1&limit=500");
    expect([paged.status, paged.body.page, paged.body.limit, paged.body.data[0].id]).toEqual([
      200,
      2,
      1,
      beta.id,
    ]);
    expect(await ws.listedIds("?keyword=alpha&keyword=beta")).toEqual([alpha.id, alphabet.id]);
    expect((await ws.list("?limit=0&limit=1")).body).toEqual(invalidParam(LIMIT_MESSAGE));
    expect((await ws.list("?include_all=yes&include_all=true")).body).toEqual(
      invalidParam(INCLUDE_ALL_MESSAGE),
    );
    expect((await ws.list("?include_all=true&include_all=yes")).status).toBe(200);
  });

  it("reads every query parameter, the ones after the first thousand too, as Flask does", async () => {
    const ws = await freshWorkspace();
    await ws.addDataset({ createdAt: 2, name: "alpha" });
    const beta = await ws.addDataset({ createdAt: 1, name: "beta" });
    const padding = "pad=1&".repeat(1000);
    expect(await ws.listedIds(`?${padding}keyword=beta`)).toEqual([beta.id]);
    expect((await ws.list(`?${padding}limit=0`)).body).toEqual(invalidParam(LIMIT_MESSAGE));
  });

  it("filters by a name substring: ASCII letters in either case, the rest exact, wildcards literal", async () => {
    const ws = await freshWorkspace();
    const names = [
      "Sales Q3",
      "sales-archive",
      "100% ready",
      "100 ready",
      "a_b",
      "axb",
      "c\\d",
      "cd",
      "Über",
      "über",
      "😀 party",
    ];
    const ids: Record<string, string> = {};
    for (const [index, name] of names.entries())
      ids[name] = (await ws.addDataset({ name, createdAt: 100 - index })).id;
    const find = async (keyword: string) =>
      (await ws.listedIds(`?keyword=${encodeURIComponent(keyword)}`)).map(
        (id) => Object.entries(ids).find(([, each]) => each === id)![0],
      );
    expect(await find("SALES")).toEqual(["Sales Q3", "sales-archive"]);
    expect(await find("q")).toEqual(["Sales Q3"]);
    expect(await find("%")).toEqual(["100% ready"]);
    expect(await find("READY")).toEqual(["100% ready", "100 ready"]);
    expect(await find("_")).toEqual(["a_b"]);
    expect(await find("A_B")).toEqual(["a_b"]);
    expect(await find("\\")).toEqual(["c\\d"]);
    expect(await find("Über")).toEqual(["Über"]);
    expect(await find("über")).toEqual(["über"]);
    expect(await find("BER")).toEqual(["Über", "über"]);
    expect(await find("😀")).toEqual(["😀 party"]);
    expect(await find("nothing")).toEqual([]);
    const counted = await ws.list("?keyword=sales&limit=1");
    expect([counted.body.total, counted.body.has_more, counted.body.data.length]).toEqual([2, true, 1]);
  });

  it("filters by tag_ids to the datasets bound to every one of them", async () => {
    const ws = await freshWorkspace();
    const [red, blue] = [await ws.addTag({ name: "red" }), await ws.addTag({ name: "blue" })];
    const both = await ws.addDataset({ createdAt: 3 });
    const redOnly = await ws.addDataset({ createdAt: 2 });
    const untagged = await ws.addDataset({ createdAt: 1 });
    await ws.bind([red.id, blue.id], both.id);
    await ws.bind([red.id], redOnly.id);
    expect(await ws.listedIds(`?tag_ids=${red.id}`)).toEqual([both.id, redOnly.id]);
    expect(await ws.listedIds(`?tag_ids=${blue.id}`)).toEqual([both.id]);
    expect(await ws.listedIds(`?tag_ids=${red.id}&tag_ids=${blue.id}`)).toEqual([both.id]);
    expect(await ws.listedIds(`?tag_ids=${blue.id}&tag_ids=${red.id}`)).toEqual([both.id]);
    expect(await ws.listedIds(`?tag_ids=${red.id}&tag_ids=${red.id}`)).toEqual([both.id, redOnly.id]);
    expect(await ws.listedIds(`?tag_ids=${red.id.toUpperCase()}`)).toEqual([both.id, redOnly.id]);
    expect(await ws.listedIds(`?tag_ids=${red.id}&tag_ids=${crypto.randomUUID()}`)).toEqual([]);
    expect(await ws.listedIds("?tag_ids=")).toEqual([both.id, redOnly.id, untagged.id]);
    const counted = await ws.list(`?tag_ids=${red.id}&limit=1`);
    expect([counted.body.total, counted.body.has_more]).toEqual([2, true]);
  });

  it("matches nothing for a tag id that is not a knowledge tag of the workspace, bound or not", async () => {
    const ws = await freshWorkspace();
    const dataset = await ws.addDataset();
    const knowledge = await ws.addTag({ name: "kept" });
    const appTag = await ws.addTag({ name: "kept", type: "app" });
    const other = await freshWorkspace();
    const foreign = await other.addTag({ name: "foreign" });
    await ws.bind([knowledge.id, appTag.id, foreign.id], dataset.id);
    expect(await ws.listedIds(`?tag_ids=${knowledge.id}`)).toEqual([dataset.id]);
    for (const tagId of [appTag.id, foreign.id, crypto.randomUUID(), "not-a-uuid"]) {
      const response = await ws.list(`?tag_ids=${encodeURIComponent(tagId)}`);
      expect([tagId, response.status, response.body.data, response.body.total]).toEqual([tagId, 200, [], 0]);
    }
    expect(await ws.listedIds(`?tag_ids=${knowledge.id}&tag_ids=${appTag.id}`)).toEqual([]);
  });

  it("accepts include_all true, false, 1 or 0 in any case, and lists the same either way", async () => {
    const ws = await freshWorkspace();
    const open = await ws.addDataset({ createdAt: 2 });
    const closed = await ws.addDataset({ createdAt: 1, enableApi: false });
    for (const value of ["true", "false", "1", "0", "TRUE", "False", "tRuE"])
      expect([value, await ws.listedIds(`?include_all=${value}`)]).toEqual([value, [open.id, closed.id]]);
  });

  it.each(["yes", "no", "2", "t", " true", "truth", "-1"])(
    "answers 400 for include_all=%j",
    async (value) => {
      const response = await call(
        server.url,
        "GET",
        `/v1/datasets?include_all=${encodeURIComponent(value)}`,
        {
          token: world.datasetKey,
        },
      );
      expect(response.status).toBe(400);
      expect(response.body).toEqual(invalidParam(INCLUDE_ALL_MESSAGE));
    },
  );

  it("answers 401 without a knowledge key", async () => {
    for (const response of [
      await call(server.url, "GET", "/v1/datasets", { token: world.apps.chat.key }),
      await call(server.url, "GET", "/v1/datasets"),
    ]) {
      expect(response.status).toBe(401);
      expect(response.body.code).toBe("unauthorized");
    }
  });
});

describe("GET /v1/datasets/{dataset_id}", () => {
  it("answers 404 Dataset not found. for an unknown, malformed or another workspace's dataset", async () => {
    const ws = await freshWorkspace();
    for (const datasetId of [crypto.randomUUID(), "not-a-uuid", world.dataset.id]) {
      const response = await ws.get(datasetId);
      expect(response.status).toBe(404);
      expect(response.body).toEqual(DATASET_NOT_FOUND);
    }
  });

  it("answers 403 when the dataset's API access is off", async () => {
    const ws = await freshWorkspace();
    const closed = await ws.addDataset({ enableApi: false });
    const response = await ws.get(closed.id);
    expect(response.status).toBe(403);
    expect(response.body).toEqual(API_DISABLED);
  });

  it("finds the dataset whatever the case of its id, and shows it as the list does", async () => {
    const ws = await freshWorkspace();
    const dataset = await ws.addDataset({ createdBy: ws.owner.id });
    await ws.addDocument(dataset.id);
    const response = await ws.get(dataset.id.toUpperCase());
    expect(response.status).toBe(200);
    expect(response.body.id).toBe(dataset.id);
    expect(response.body).toEqual((await ws.list()).body.data[0]);
  });
});

describe("the dataset object", () => {
  it("has every key in Dify's order, with stored values, counters and constants", async () => {
    const ws = await freshWorkspace();
    const dataset = await ws.addDataset({
      name: "Policies",
      description: "Company policies",
      createdBy: ws.owner.id,
      updatedBy: ws.owner.id,
      createdAt: 1_700_000_010,
      updatedAt: 1_700_000_020,
    });
    const second = await ws.addDocument(dataset.id, { position: 2, wordCount: 100, createdAt: 1 });
    await ws.addDocument(dataset.id, {
      position: 1,
      wordCount: 250,
      createdAt: 2,
      dataSourceType: "thirdparty_import",
      docForm: "qa_model",
    });
    await ws.addDocument(dataset.id, { position: 3, wordCount: 5, indexingStatus: "error" });
    await ws.addDocument(dataset.id, { position: 4, wordCount: 7, enabled: false });
    await ws.addDocument(dataset.id, { position: 5, wordCount: 11, archived: true });
    const beta = await ws.addTag({ name: "beta" });
    const upperAlpha = await ws.addTag({ name: "Alpha" });
    const alpha = await ws.addTag({ name: "alpha" });
    const appTag = await ws.addTag({ name: "apps", type: "app" });
    await ws.bind([beta.id, alpha.id, appTag.id, upperAlpha.id], dataset.id);
    const { repositories } = server.store;
    const year = aMetadataField(dataset.id, { name: "year", type: "number", createdAt: 2 });
    const author = aMetadataField(dataset.id, { name: "author", type: "string", createdAt: 1 });
    for (const field of [year, author]) await repositories.metadata.saveField(field);
    await repositories.metadata.setValue(second.id, author.id, "Ada");

    const response = await ws.get(dataset.id);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(DATASET_KEYS);
    expect(response.body).toEqual({
      id: dataset.id,
      name: "Policies",
      description: "Company policies",
      provider: "vendor",
      permission: "all_team_members",
      data_source_type: "thirdparty_import",
      indexing_technique: "economy",
      app_count: 0,
      document_count: 5,
      word_count: 373,
      created_by: ws.owner.id,
      author_name: "Grace Hopper",
      created_at: 1_700_000_010,
      updated_by: ws.owner.id,
      updated_at: 1_700_000_020,
      embedding_model: "",
      embedding_model_provider: "",
      embedding_available: true,
      retrieval_model_dict: ECONOMY_RETRIEVAL,
      summary_index_setting: null,
      tags: [
        { id: upperAlpha.id, name: "Alpha", type: "knowledge" },
        { id: alpha.id, name: "alpha", type: "knowledge" },
        { id: beta.id, name: "beta", type: "knowledge" },
      ],
      doc_form: "qa_model",
      external_knowledge_info: null,
      external_retrieval_model: null,
      doc_metadata: [
        { id: author.id, name: "author", type: "string" },
        { id: year.id, name: "year", type: "number" },
      ],
      built_in_field_enabled: false,
      enable_api: true,
      pipeline_id: null,
      chunk_structure: null,
      icon_info: null,
      maintainer: null,
      runtime_mode: "general",
      is_published: false,
      is_multimodal: false,
      total_documents: 5,
      total_available_documents: 2,
    });
    const listed = (await ws.list()).body.data[0];
    expect(Object.keys(listed)).toEqual(DATASET_KEYS);
    expect(listed).toEqual(response.body);
  });

  it("has empty strings and zeros for a dataset without documents, creator or updater", async () => {
    const ws = await freshWorkspace();
    const dataset = await ws.addDataset({ name: "Empty", createdAt: 1_700_000_050 });
    const response = await ws.get(dataset.id);
    expect(Object.keys(response.body)).toEqual(DATASET_KEYS);
    expect(response.body).toMatchObject({
      description: "",
      data_source_type: "",
      doc_form: "",
      document_count: 0,
      word_count: 0,
      created_by: "",
      author_name: "",
      created_at: 1_700_000_050,
      updated_by: "",
      updated_at: 1_700_000_050,
      tags: [],
      doc_metadata: [],
      total_documents: 0,
      total_available_documents: 0,
    });
  });

  it("takes data_source_type and doc_form from the first document by position, then id", async () => {
    const ws = await freshWorkspace();
    const dataset = await ws.addDataset();
    const [low, high] = [crypto.randomUUID(), crypto.randomUUID()].sort();
    await ws.addDocument(dataset.id, { id: high, position: 1, docForm: "text_model", createdAt: 9 });
    await ws.addDocument(dataset.id, {
      id: low,
      position: 1,
      dataSourceType: "thirdparty_import",
      docForm: "hierarchical_model",
      createdAt: 1,
    });
    await ws.addDocument(dataset.id, { position: 2, docForm: "qa_model" });
    expect((await ws.get(dataset.id)).body).toMatchObject({
      data_source_type: "thirdparty_import",
      doc_form: "hierarchical_model",
    });
  });

  it("lists custom fields by creation, then the five built-ins when enabled", async () => {
    const ws = await freshWorkspace();
    const dataset = await ws.addDataset({ builtInFieldEnabled: true });
    const field = aMetadataField(dataset.id, { name: "team", type: "time" });
    await server.store.repositories.metadata.saveField(field);
    const { body } = await ws.get(dataset.id);
    expect(body.built_in_field_enabled).toBe(true);
    expect(body.doc_metadata).toEqual([
      { id: field.id, name: "team", type: "time" },
      { id: "built-in", name: "document_name", type: "string" },
      { id: "built-in", name: "uploader", type: "string" },
      { id: "built-in", name: "upload_date", type: "time" },
      { id: "built-in", name: "last_update_date", type: "time" },
      { id: "built-in", name: "source", type: "string" },
    ]);
  });

  it("shows the current tags and counters at once after writes through the API", async () => {
    const ws = await freshWorkspace();
    const dataset = await ws.addDataset();
    const document = await ws.addDocument(dataset.id, { wordCount: 40 });
    await ws.addDocument(dataset.id, { wordCount: 2, position: 2 });
    const tag = await ws.addTag({ name: "ops" });
    const bound = await call(server.url, "POST", "/v1/datasets/tags/binding", {
      token: ws.key,
      body: { tag_ids: [tag.id], target_id: dataset.id },
    });
    expect(bound.status).toBe(204);
    const disabled = await call(server.url, "PATCH", `/v1/datasets/${dataset.id}/documents/status/disable`, {
      token: ws.key,
      body: { document_ids: [document.id] },
    });
    expect(disabled.status).toBe(200);
    expect((await ws.get(dataset.id)).body).toMatchObject({
      tags: [{ id: tag.id, name: "ops", type: "knowledge" }],
      document_count: 2,
      word_count: 42,
      total_documents: 2,
      total_available_documents: 1,
    });
    const deleted = await call(server.url, "DELETE", `/v1/datasets/${dataset.id}/documents/${document.id}`, {
      token: ws.key,
    });
    expect(deleted.status).toBe(204);
    expect((await ws.get(dataset.id)).body).toMatchObject({
      document_count: 1,
      word_count: 2,
      total_documents: 1,
      total_available_documents: 1,
    });
  });
});
