import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "./support/http.js";
import { schemaProperties } from "./support/response-schemas.js";
import { type SeededWorkspace, seedWorkspace } from "./support/seed.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
let world: SeededWorkspace;
const path = (datasetId = world.dataset.id, documentId = world.document.id) =>
  `/v1/datasets/${datasetId}/documents/${documentId}`;
const getDocument = (query = "", token = world.datasetKey, documentPath = path()) =>
  call(server.url, "GET", `${documentPath}${query}`, { token });

beforeAll(async () => {
  server = await startTestServer();
  world = await seedWorkspace(server.store.repositories);
});
afterAll(() => server.stop());

describe("GET /v1/datasets/{dataset_id}/documents/{document_id}", () => {
  it("returns every document field by default, valid against Dify's published schema", async () => {
    const response = await getDocument();
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(schemaProperties("getDocumentDetail").sort());
    expect(response.body).toMatchObject({
      id: world.document.id,
      name: "guide.txt",
      data_source_type: "upload_file",
      data_source_info: {
        upload_file: {
          id: world.file.id,
          name: "guide.txt",
          size: 2048,
          extension: "txt",
          mime_type: "text/plain",
          created_by: world.member.id,
          created_at: world.file.createdAt,
        },
      },
      dataset_process_rule_id: world.document.processRule.id,
      dataset_process_rule: { id: world.dataset.processRule?.id, mode: "custom" },
      document_process_rule: { mode: "custom", rules: world.document.processRule.rules },
      display_status: "available",
      doc_metadata: [{ id: world.fields.author.id, name: "author", type: "string", value: "Ada" }],
    });
  });

  it("computes segment count, hit count and the floored average length from the chunks", async () => {
    const { body } = await getDocument();
    expect(body).toMatchObject({ segment_count: 3, hit_count: 5, average_segment_length: 6 });
  });

  it("gives zero figures and an empty file object for a document without chunks or file", async () => {
    const { body } = await getDocument("", world.datasetKey, path(world.dataset.id, world.second.id));
    expect(body).toMatchObject({
      segment_count: 0,
      hit_count: 0,
      average_segment_length: 0,
      data_source_info: {},
    });
    expect(body.doc_metadata).toEqual([]);
  });

  it("treats metadata=all like the default", async () => {
    const [all, byDefault] = [await getDocument("?metadata=all"), await getDocument()];
    expect(all.body).toEqual(byDefault.body);
  });

  it("returns exactly id, doc_type and doc_metadata for metadata=only", async () => {
    const response = await getDocument("?metadata=only");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: world.document.id,
      doc_type: null,
      doc_metadata: [{ id: world.fields.author.id, name: "author", type: "string", value: "Ada" }],
    });
  });

  it("returns every field but doc_metadata for metadata=without", async () => {
    const [without, all] = [await getDocument("?metadata=without"), await getDocument()];
    expect(without.status).toBe(200);
    const { doc_metadata, ...rest } = all.body;
    expect(without.body).toEqual(rest);
    expect(without.body).toHaveProperty("doc_type");
  });

  it.each(["bogus", "", "ALL", "only "])("answers 400 invalid_metadata for metadata=%j", async (value) => {
    const response = await getDocument(`?metadata=${encodeURIComponent(value)}`);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      status: 400,
      code: "invalid_metadata",
      message: `Invalid metadata value: ${value}`,
    });
  });

  it("answers 404 for a missing document before looking at metadata", async () => {
    const response = await getDocument(
      "?metadata=bogus",
      world.datasetKey,
      path(world.dataset.id, crypto.randomUUID()),
    );
    expect(response.body).toEqual({ status: 404, code: "not_found", message: "Document not found." });
  });

  it("answers 404 for a document of another dataset of the workspace", async () => {
    const other = crypto.randomUUID();
    await server.store.repositories.datasets.save({ ...world.dataset, id: other, name: "Other" });
    const response = await getDocument("", world.datasetKey, path(other, world.document.id));
    expect(response.body).toEqual({ status: 404, code: "not_found", message: "Document not found." });
  });

  it("answers 404 Dataset not found. for an unknown or malformed dataset id", async () => {
    for (const datasetId of [crypto.randomUUID(), "not-a-uuid"]) {
      const response = await getDocument("", world.datasetKey, path(datasetId));
      expect(response.body).toEqual({ status: 404, code: "not_found", message: "Dataset not found." });
    }
  });

  it("finds the document whatever the case of the UUIDs", async () => {
    const response = await getDocument(
      "",
      world.datasetKey,
      path(world.dataset.id.toUpperCase(), world.document.id.toUpperCase()),
    );
    expect(response.status).toBe(200);
    expect(response.body.id).toBe(world.document.id);
  });

  it("answers 403 when the dataset's API access is off, before looking for the document", async () => {
    const { repositories } = server.store;
    await repositories.datasets.save({ ...world.dataset, enableApi: false });
    try {
      const response = await getDocument("", world.datasetKey, path(world.dataset.id, crypto.randomUUID()));
      expect(response.body).toEqual({
        status: 403,
        code: "forbidden",
        message: "Dataset api access is not enabled.",
      });
    } finally {
      await repositories.datasets.save(world.dataset);
    }
  });

  it("adds the five built-in fields after the custom ones when the dataset enables them", async () => {
    const { repositories } = server.store;
    await repositories.datasets.save({ ...world.dataset, builtInFieldEnabled: true });
    try {
      const { body } = await getDocument("?metadata=only");
      expect(body.doc_metadata).toEqual([
        { id: world.fields.author.id, name: "author", type: "string", value: "Ada" },
        { id: "built-in", name: "document_name", type: "string", value: "guide.txt" },
        { id: "built-in", name: "uploader", type: "string", value: "Ada Lovelace" },
        { id: "built-in", name: "upload_date", type: "time", value: String(world.document.createdAt) },
        { id: "built-in", name: "last_update_date", type: "time", value: String(world.document.updatedAt) },
        { id: "built-in", name: "source", type: "string", value: "file_upload" },
      ]);
    } finally {
      await repositories.datasets.save(world.dataset);
    }
  });

  it.each([
    ["waiting", {}, "queuing"],
    ["parsing", {}, "indexing"],
    ["cleaning", {}, "indexing"],
    ["splitting", {}, "indexing"],
    ["indexing", {}, "indexing"],
    ["paused", {}, "paused"],
    ["indexing", { isPaused: true }, "paused"],
    ["error", {}, "error"],
    ["completed", {}, "available"],
    ["completed", { enabled: false }, "disabled"],
    ["completed", { archived: true }, "archived"],
  ] as const)("shows indexing_status %s %j as display_status %s", async (indexingStatus, extra, expected) => {
    const document = { ...world.second, id: crypto.randomUUID(), indexingStatus, ...extra };
    await server.store.repositories.documents.save(document);
    const { body } = await getDocument("", world.datasetKey, path(world.dataset.id, document.id));
    expect(body.indexing_status).toBe(indexingStatus);
    expect(body.display_status).toBe(expected);
  });
});
