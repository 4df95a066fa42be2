import { aDocument, aMember, aTag, aWorkspace } from "@service-api/ports/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "./support/http.js";
import { eventually } from "./support/load.js";
import { issueKey } from "./support/seed.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const invalidParam = (message: string) => ({ status: 400, code: "invalid_param", message });
const DATASET_NOT_FOUND = { status: 404, code: "not_found", message: "Dataset not found." };
const DUPLICATE = {
  status: 409,
  code: "dataset_name_duplicate",
  message: "The dataset name already exists. Please modify your dataset name.",
};
const NO_MODEL = {
  status: 400,
  code: "provider_not_initialize",
  message:
    "No Embedding Model available. Please configure a valid provider in the Settings -> Model Provider.",
};
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
const FULL_TEXT = {
  search_method: "full_text_search",
  reranking_enable: false,
  top_k: 5,
  score_threshold_enabled: true,
  score_threshold: 0.3,
};

/** A workspace of its own, with its owner and a knowledge key. */
async function aWorkspaceWithKey() {
  const { repositories } = server.store;
  const workspace = aWorkspace();
  await repositories.workspaces.save(workspace);
  const owner = aMember(workspace.id, { name: "Grace Hopper", role: "owner" });
  await repositories.workspaces.saveMember(owner);
  const key = await issueKey(repositories, workspace.id);
  const send = (method: string, path: string, body?: unknown) =>
    call(server.url, method, `/v1${path}`, { token: key, body });
  const create = (body: unknown) => send("POST", "/datasets", body);
  const names = async () => {
    const response = await send("GET", "/datasets?limit=100");
    expect(response.status).toBe(200);
    return (response.body.data as { name: string }[]).map((dataset) => dataset.name).sort();
  };
  return { workspace, owner, key, send, create, names };
}

const expectAnswer = (response: { status: number; body: unknown }, status: number, body: unknown) =>
  expect({ status: response.status, body: response.body }).toEqual({ status, body });

describe("POST /v1/datasets", () => {
  it("creates an empty dataset by the workspace's owner, shown as stored, then listed and read", async () => {
    const { owner, send, create } = await aWorkspaceWithKey();
    const before = Math.floor(Date.now() / 1000);
    const response = await create({ name: "Product docs", description: "All of it" });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      name: "Product docs",
      description: "All of it",
      provider: "vendor",
      permission: "only_me",
      indexing_technique: "",
      document_count: 0,
      word_count: 0,
      created_by: owner.id,
      author_name: "Grace Hopper",
      updated_by: "",
      retrieval_model_dict: ECONOMY_RETRIEVAL,
      tags: [],
      doc_form: "",
      doc_metadata: [],
      built_in_field_enabled: false,
      enable_api: true,
      total_documents: 0,
      total_available_documents: 0,
    });
    expect(response.body.created_at).toBeGreaterThanOrEqual(before);
    const read = await send("GET", `/datasets/${response.body.id}`);
    expectAnswer(read, 200, response.body);
    const listed = await send("GET", "/datasets");
    expect(listed.body.data).toEqual([response.body]);
  });

  it("stores the technique, permission and retrieval model it is given, and shows them", async () => {
    const { create } = await aWorkspaceWithKey();
    const response = await create({
      name: "Searchable",
      indexing_technique: "economy",
      permission: "all_team_members",
      retrieval_model: FULL_TEXT,
      embedding_model: null,
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      indexing_technique: "economy",
      permission: "all_team_members",
      retrieval_model_dict: {
        search_method: "full_text_search",
        reranking_enable: false,
        reranking_mode: null,
        reranking_model: { reranking_provider_name: "", reranking_model_name: "" },
        weights: null,
        top_k: 5,
        score_threshold_enabled: true,
        score_threshold: 0.3,
      },
    });
  });

  const refusals: [string, unknown, unknown][] = [
    ["a blank name", { name: "  " }, invalidParam("name: Name must not be blank.")],
    [
      "a name of 41 characters",
      { name: "n".repeat(41) },
      invalidParam("name: Name must be between 1 to 40 characters."),
    ],
    ["no name", {}, invalidParam("name: Invalid input: expected string, received undefined")],
    [
      "a description of 401 characters",
      { name: "D", description: "d".repeat(401) },
      invalidParam("description: Description cannot exceed 400 characters."),
    ],
    [
      "an external provider",
      { name: "D", provider: "external" },
      invalidParam("External knowledge bases are not supported."),
    ],
    ["high quality indexing", { name: "D", indexing_technique: "high_quality" }, NO_MODEL],
    [
      "semantic search",
      { name: "D", retrieval_model: { ...FULL_TEXT, search_method: "semantic_search" } },
      NO_MODEL,
    ],
    [
      "hybrid search",
      { name: "D", retrieval_model: { ...FULL_TEXT, search_method: "hybrid_search" } },
      NO_MODEL,
    ],
    ["reranking", { name: "D", retrieval_model: { ...FULL_TEXT, reranking_enable: true } }, NO_MODEL],
    ["a summary index", { name: "D", summary_index_setting: { enable: true } }, NO_MODEL],
    [
      "top_k 0",
      { name: "D", retrieval_model: { ...FULL_TEXT, top_k: 0 } },
      invalidParam("retrieval_model.top_k: must be an integer from 1 to 100."),
    ],
    [
      "top_k 101",
      { name: "D", retrieval_model: { ...FULL_TEXT, top_k: 101 } },
      invalidParam("retrieval_model.top_k: must be an integer from 1 to 100."),
    ],
    [
      "top_k 2.5",
      { name: "D", retrieval_model: { ...FULL_TEXT, top_k: 2.5 } },
      invalidParam("retrieval_model.top_k: must be an integer from 1 to 100."),
    ],
    [
      "top_k that is text",
      { name: "D", retrieval_model: { ...FULL_TEXT, top_k: "5" } },
      invalidParam("retrieval_model.top_k: must be a number."),
    ],
  ];

  it.each(refusals)("refuses %s, creating nothing", async (_case, body, answer) => {
    const { create, names } = await aWorkspaceWithKey();
    expectAnswer(await create(body), (answer as { status: number }).status, answer);
    expect(await names()).toEqual([]);
  });

  it("refuses numbers past a double's range with the message for a number that is not finite", async () => {
    const { key, names } = await aWorkspaceWithKey();
    const raw = (retrieval: string) =>
      call(server.url, "POST", "/v1/datasets", {
        token: key,
        rawBody: `{"name":"D","retrieval_model":{"search_method":"full_text_search","reranking_enable":false,"score_threshold_enabled":true,${retrieval}}}`,
        headers: { "content-type": "application/json" },
      });
    expectAnswer(
      await raw(`"top_k":1e400`),
      400,
      invalidParam("retrieval_model.top_k: must be an integer from 1 to 100."),
    );
    expectAnswer(
      await raw(`"top_k":3,"score_threshold":-1e400`),
      400,
      invalidParam("retrieval_model.score_threshold: must be a finite number."),
    );
    expect(await names()).toEqual([]);
  });

  it("answers a name the workspace holds 409, and lets exactly one of concurrent creates of a name through", async () => {
    const { create, names } = await aWorkspaceWithKey();
    expect((await create({ name: "Docs" })).status).toBe(200);
    expectAnswer(await create({ name: "Docs" }), 409, DUPLICATE);
    expect((await create({ name: "docs" })).status).toBe(200);
    const racing = await Promise.all(Array.from({ length: 8 }, () => create({ name: "Racing" })));
    expect(racing.map((response) => response.status).sort()).toEqual([
      200, 409, 409, 409, 409, 409, 409, 409,
    ]);
    expect(await names()).toEqual(["Docs", "Racing", "docs"]);
    const other = await aWorkspaceWithKey();
    expect((await other.create({ name: "Docs" })).status).toBe(200);
  });
});

describe("PATCH /v1/datasets/{dataset_id}", () => {
  it("changes only the settings sent, by the owner, and shows the dataset as changed", async () => {
    const { owner, send, create } = await aWorkspaceWithKey();
    const { body: created } = await create({ name: "Docs", description: "old", permission: "only_me" });
    const response = await send("PATCH", `/datasets/${created.id}`, {
      indexing_technique: "economy",
      retrieval_model: FULL_TEXT,
      partial_member_list: [],
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      name: "Docs",
      description: "old",
      permission: "only_me",
      indexing_technique: "economy",
      updated_by: owner.id,
      retrieval_model_dict: { search_method: "full_text_search", top_k: 5 },
    });
    expect(response.body.updated_at).toBeGreaterThanOrEqual(created.updated_at);
    expectAnswer(await send("GET", `/datasets/${created.id}`), 200, response.body);
    const renamed = await send("PATCH", `/datasets/${created.id}`, {
      name: "Renamed",
      permission: "partial_members",
    });
    expect(renamed.body).toMatchObject({
      name: "Renamed",
      permission: "partial_members",
      description: "old",
    });
  });

  it("refuses what it cannot do, in order after the dataset, changing nothing", async () => {
    const { send, create, key } = await aWorkspaceWithKey();
    const { body: created } = await create({ name: "Docs", indexing_technique: "economy" });
    await create({ name: "Taken" });
    const path = `/datasets/${created.id}`;
    expectAnswer(
      await send("PATCH", path, { indexing_technique: null }),
      400,
      invalidParam("indexing_technique: cannot be unset."),
    );
    expectAnswer(await send("PATCH", path, { indexing_technique: "high_quality" }), 400, NO_MODEL);
    expectAnswer(await send("PATCH", path, { name: "Taken" }), 409, DUPLICATE);
    expectAnswer(await send("PATCH", path, { name: "" }), 400, invalidParam("name: Name must not be blank."));
    expectAnswer(
      await send("PATCH", `/datasets/${crypto.randomUUID()}`, { name: " " }),
      404,
      DATASET_NOT_FOUND,
    );
    expectAnswer(await send("PATCH", "/datasets/not-a-uuid", { name: "x" }), 404, DATASET_NOT_FOUND);
    const other = await aWorkspaceWithKey();
    expectAnswer(await other.send("PATCH", path, { name: "Stolen" }), 404, DATASET_NOT_FOUND);
    const read = await call(server.url, "GET", `/v1${path}`, { token: key });
    expect(read.body).toEqual(created);
  });

  it("answers 403 for a dataset whose API is off, changing nothing", async () => {
    const { workspace, send, create } = await aWorkspaceWithKey();
    const { body: created } = await create({ name: "Closed" });
    const stored = await server.store.repositories.datasets.findInWorkspace(workspace.id, created.id);
    await server.store.repositories.datasets.save({ ...stored!, enableApi: false });
    expectAnswer(await send("PATCH", `/datasets/${created.id}`, { name: "Open" }), 403, {
      status: 403,
      code: "forbidden",
      message: "Dataset api access is not enabled.",
    });
    expect((await server.store.repositories.datasets.findInWorkspace(workspace.id, created.id))?.name).toBe(
      "Closed",
    );
  });
});

describe("DELETE /v1/datasets/{dataset_id}", () => {
  it("takes the dataset and all in it out of every read at once, then purges its rows in the background", async () => {
    const { workspace, send, create, names } = await aWorkspaceWithKey();
    const { repositories } = server.store;
    const { body: created } = await create({ name: "Doomed" });
    const documents = Array.from({ length: 30 }, (_, index) =>
      aDocument(created.id, { position: index + 1 }),
    );
    for (const document of documents) await repositories.documents.save(document);
    const tag = aTag(workspace.id, { name: "doomed-tag" });
    await repositories.tags.save(tag);
    expect(
      (await send("POST", "/datasets/tags/binding", { tag_ids: [tag.id], target_id: created.id })).status,
    ).toBe(204);

    const other = await aWorkspaceWithKey();
    expectAnswer(await other.send("DELETE", `/datasets/${created.id}`), 404, DATASET_NOT_FOUND);
    const response = await send("DELETE", `/datasets/${created.id}`);
    expect({ status: response.status, text: response.text }).toEqual({ status: 204, text: "" });

    expectAnswer(await send("GET", `/datasets/${created.id}`), 404, DATASET_NOT_FOUND);
    expectAnswer(await send("GET", `/datasets/${created.id}/documents`), 404, DATASET_NOT_FOUND);
    expectAnswer(
      await send("GET", `/datasets/${created.id}/documents/${documents[0]!.id}`),
      404,
      DATASET_NOT_FOUND,
    );
    expectAnswer(await send("DELETE", `/datasets/${created.id}`), 404, DATASET_NOT_FOUND);
    expect(await names()).toEqual([]);
    const tags = await send("GET", "/datasets/tags");
    expect(tags.body).toEqual([{ id: tag.id, name: "doomed-tag", type: "knowledge", binding_count: "0" }]);
    // Its name is free at once.
    expect((await create({ name: "Doomed" })).status).toBe(200);

    // The job goes once its last batch is done: then nothing of the dataset is left.
    await eventually(async () => Object.keys(await repositories.jobs.countByKind()).length === 0);
    for (const document of [documents[0]!, documents[29]!])
      expect(await repositories.documents.findInDataset(created.id, document.id)).toBeUndefined();
  });
});
