import { aMember, aWorkspace } from "@service-api/ports/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "./support/http.js";
import { eventually } from "./support/load.js";
import { RawConnection } from "./support/raw-http.js";
import { issueKey } from "./support/seed.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ UPLOAD_FILE_SIZE_LIMIT_MB: "2" });
});
afterAll(() => server.stop());

const jsonOf = (text: string) => JSON.parse(text) as Record<string, unknown>;
const invalidParam = (message: string) => ({ status: 400, code: "invalid_param", message });
const PARAGRAPHS = Array.from({ length: 12 }, (_, index) =>
  `Paragraph ${index + 1} tells of widgets: how they are set up, what the warranty covers, and which parts wear out first. `.repeat(
    2,
  ),
).join("\n\n");

/** A workspace with its owner, a knowledge key and an economy dataset made through the API. */
async function aKnowledgeBase() {
  const { repositories } = server.store;
  const workspace = aWorkspace();
  await repositories.workspaces.save(workspace);
  await repositories.workspaces.saveMember(aMember(workspace.id, { name: "Grace", role: "owner" }));
  const key = await issueKey(repositories, workspace.id);
  const send = (method: string, path: string, body?: unknown) =>
    call(server.url, method, `/v1${path}`, { token: key, body });
  const created = await send("POST", "/datasets", { name: "Handbook", indexing_technique: "economy" });
  expect(created.status).toBe(200);
  const datasetId = created.body.id as string;
  const statusOf = async (batch: string) => {
    const response = await send("GET", `/datasets/${datasetId}/documents/${batch}/indexing-status`);
    expect(response.status).toBe(200);
    return response.body.data as Record<string, unknown>[];
  };
  const completed = (batch: string) =>
    eventually(
      async () => (await statusOf(batch)).every((entry) => entry.indexing_status === "completed"),
      20_000,
    );
  return { key, send, datasetId, statusOf, completed };
}

describe("POST /v1/datasets/{dataset_id}/document/create-by-text", () => {
  it("answers at once with the waiting document and its batch, then indexes it in the background", async () => {
    const { send, datasetId, statusOf, completed } = await aKnowledgeBase();
    const response = await send("POST", `/datasets/${datasetId}/document/create-by-text`, {
      name: "widgets.txt",
      text: PARAGRAPHS,
      process_rule: {
        mode: "custom",
        rules: {
          pre_processing_rules: [{ id: "remove_extra_spaces", enabled: true }],
          segmentation: { separator: "\\n\\n", max_tokens: 500, chunk_overlap: 0 },
        },
      },
    });
    expect(response.status).toBe(200);
    expect(response.body.batch).toMatch(/^\d{20}$/);
    expect(response.body.document).toMatchObject({
      name: "widgets.txt",
      position: 1,
      data_source_type: "upload_file",
      created_from: "api",
      indexing_status: "waiting",
      display_status: "queuing",
      word_count: 0,
      tokens: 0,
      doc_form: "text_model",
    });
    const documentId = response.body.document.id as string;
    await completed(response.body.batch);
    const [status] = await statusOf(response.body.batch);
    expect(status).toMatchObject({
      id: documentId,
      indexing_status: "completed",
      error: null,
      total_segments: 12,
    });
    expect(status!.completed_segments).toBe(12);
    for (const step of [
      "processing_started_at",
      "parsing_completed_at",
      "splitting_completed_at",
      "completed_at",
    ])
      expect(typeof status![step]).toBe("number");

    const detail = await send("GET", `/datasets/${datasetId}/documents/${documentId}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({
      indexing_status: "completed",
      display_status: "available",
      segment_count: 12,
    });
    expect(detail.body.average_segment_length).toBeGreaterThan(100);
    const listed = await send("GET", `/datasets/${datasetId}/documents`);
    expect(listed.body.data[0]).toMatchObject({ id: documentId, word_count: expect.any(Number) });
    expect(listed.body.data[0].word_count).toBeGreaterThan(2000);
    const dataset = await send("GET", `/datasets/${datasetId}`);
    expect(dataset.body).toMatchObject({
      document_count: 1,
      total_available_documents: 1,
      doc_form: "text_model",
    });
  });

  it("replaces an enabled document of the same name: same id, new batch, the old batch gone", async () => {
    const { send, datasetId, completed } = await aKnowledgeBase();
    const path = `/datasets/${datasetId}/document/create-by-text`;
    const first = await send("POST", path, { name: "notes", text: "the first version" });
    await completed(first.body.batch);
    const second = await send("POST", path, { name: "notes", text: "the second version" });
    expect(second.body.document.id).toBe(first.body.document.id);
    expect(second.body.batch).not.toBe(first.body.batch);
    await completed(second.body.batch);
    const old = await send("GET", `/datasets/${datasetId}/documents/${first.body.batch}/indexing-status`);
    expect({ status: old.status, body: old.body }).toEqual({
      status: 404,
      body: { status: 404, code: "not_found", message: "Documents not found." },
    });
    const listed = await send("GET", `/datasets/${datasetId}/documents`);
    expect(listed.body.total).toBe(1);
  });

  it("serves the deprecated underscore path the same way", async () => {
    const { send, datasetId, completed } = await aKnowledgeBase();
    const response = await send("POST", `/datasets/${datasetId}/document/create_by_text`, {
      name: "a",
      text: "b",
    });
    expect(response.status).toBe(200);
    await completed(response.body.batch);
  });

  it.each([
    ["no name", { text: "t" }, invalidParam("name: Invalid input: expected string, received undefined")],
    [
      "an unknown doc_form",
      { name: "n", text: "t", doc_form: "tree" },
      invalidParam("doc_form: Invalid doc_form."),
    ],
    [
      "a rule without a mode",
      { name: "n", text: "t", process_rule: { rules: {} } },
      invalidParam("Process rule mode is required"),
    ],
    [
      "a segment length Dify would fail on while indexing",
      {
        name: "n",
        text: "t",
        process_rule: {
          mode: "custom",
          rules: { pre_processing_rules: [], segmentation: { separator: "\\n", max_tokens: 5000 } },
        },
      },
      invalidParam("Custom segment length should be between 50 and 4000."),
    ],
    [
      "a name with a NUL, which no store can hold",
      { name: "a\u0000b", text: "t" },
      invalidParam("name: must not contain NUL characters or unpaired surrogates."),
    ],
    [
      "a doc_language with an unpaired surrogate",
      { name: "n", text: "t", doc_language: "en\ud800" },
      invalidParam("doc_language: must not contain NUL characters or unpaired surrogates."),
    ],
    [
      "question-and-answer documents",
      { name: "n", text: "t", doc_form: "qa_model" },
      {
        status: 400,
        code: "provider_not_initialize",
        message:
          "No Embedding Model available. Please configure a valid provider in the Settings -> Model Provider.",
      },
    ],
  ])("refuses %s, creating nothing", async (_case, body, answer) => {
    const { send, datasetId } = await aKnowledgeBase();
    const response = await send("POST", `/datasets/${datasetId}/document/create-by-text`, body);
    expect({ status: response.status, body: response.body }).toEqual({
      status: (answer as { status: number }).status,
      body: answer,
    });
    expect((await send("GET", `/datasets/${datasetId}/documents`)).body.total).toBe(0);
  });

  it("refuses a text over the upload limit 413 file_too_large, and takes one within it", async () => {
    const { send, datasetId, completed } = await aKnowledgeBase();
    const path = `/datasets/${datasetId}/document/create-by-text`;
    const tooLarge = await send("POST", path, { name: "big", text: "x".repeat(2 * 1024 * 1024 + 1) });
    expect({ status: tooLarge.status, body: tooLarge.body }).toEqual({
      status: 413,
      body: { status: 413, code: "file_too_large", message: "File size exceeded. The limit is 2 MB." },
    });
    const within = await send("POST", path, { name: "large", text: "word ".repeat(300_000) });
    expect(within.status).toBe(200);
    await completed(within.body.batch);
  }, 60_000);

  it("asks for a text within the upload limit with 100 Continue, and refuses one over it without", async () => {
    const { key, datasetId, completed } = await aKnowledgeBase();
    const head = (path: string, length: number) =>
      `POST /v1/datasets/${datasetId}/document/${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
      `Authorization: Bearer ${key}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${length}\r\nExpect: 100-continue\r\n\r\n`;
    // Over the API's 1 MB, within the 2 MB upload limit: asked for, then taken.
    const body = JSON.stringify({ name: "continued", text: "word ".repeat(300_000) });
    for (const path of ["create-by-text", "create_by_text"]) {
      const connection = new RawConnection(server.url);
      connection.write(head(path, body.length));
      expect((await connection.next()).status).toBe(100);
      connection.write(body);
      const response = await connection.next();
      expect(response.status).toBe(200);
      await completed((jsonOf(response.body) as { batch: string }).batch);
      connection.close();
    }
    const over = new RawConnection(server.url);
    over.write(head("create-by-text", 2 * 1024 * 1024 + 1));
    const refused = await over.next();
    expect(refused.status).toBe(413);
    expect(refused.headers.connection).toBe("close");
    expect(jsonOf(refused.body)).toEqual({
      status: 413,
      code: "file_too_large",
      message: "File size exceeded. The limit is 2 MB.",
    });
    expect(await over.closed).toEqual({ reset: false });
  }, 60_000);

  it("asks a dataset without a technique for one", async () => {
    const { send } = await aKnowledgeBase();
    const bare = await send("POST", "/datasets", { name: "Bare" });
    const response = await send("POST", `/datasets/${bare.body.id}/document/create-by-text`, {
      name: "n",
      text: "t",
    });
    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: invalidParam("indexing_technique is required."),
    });
    const given = await send("POST", `/datasets/${bare.body.id}/document/create-by-text`, {
      name: "n",
      text: "t",
      indexing_technique: "economy",
    });
    expect(given.status).toBe(200);
    expect((await send("GET", `/datasets/${bare.body.id}`)).body.indexing_technique).toBe("economy");
  });
});

describe("POST /v1/datasets/{dataset_id}/documents/{document_id}/update-by-text", () => {
  it("indexes an available document again with its new text, answering its batch", async () => {
    const { send, datasetId, completed } = await aKnowledgeBase();
    const created = await send("POST", `/datasets/${datasetId}/document/create-by-text`, {
      name: "n",
      text: "old",
    });
    await completed(created.body.batch);
    const documentId = created.body.document.id as string;
    const response = await send("POST", `/datasets/${datasetId}/documents/${documentId}/update-by-text`, {
      name: "renamed",
      text: "new text",
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      batch: created.body.batch,
      document: { id: documentId, name: "renamed" },
    });
    await completed(created.body.batch);
    const detail = await send("GET", `/datasets/${datasetId}/documents/${documentId}`);
    expect(detail.body).toMatchObject({ name: "renamed", segment_count: 1, average_segment_length: 8 });
  });

  it("refuses what it cannot do, in Dify's order", async () => {
    const { send, datasetId } = await aKnowledgeBase();
    const created = await send("POST", `/datasets/${datasetId}/document/create-by-text`, {
      name: "n",
      text: "t",
    });
    const path = `/datasets/${datasetId}/documents/${created.body.document.id}/update-by-text`;
    const answer = async (body: unknown, at = path) => {
      const response = await send("POST", at, body);
      return { status: response.status, body: response.body };
    };
    expect(await answer({ text: "x" })).toEqual({
      status: 400,
      body: invalidParam("name is required when text is provided."),
    });
    expect(await answer({ name: "x" })).toEqual({
      status: 400,
      body: invalidParam("Data source or Process rule is required"),
    });
    expect(
      await answer(
        { name: "x", text: "y" },
        `/datasets/${datasetId}/documents/${crypto.randomUUID()}/update-by-text`,
      ),
    ).toEqual({ status: 404, body: { status: 404, code: "not_found", message: "Document not found." } });
  });
});

describe("GET /v1/datasets/{dataset_id}/documents/{batch}/indexing-status", () => {
  it("answers 404 for a batch the dataset has none of", async () => {
    const { send, datasetId } = await aKnowledgeBase();
    const response = await send(
      "GET",
      `/datasets/${datasetId}/documents/12345678901234567890/indexing-status`,
    );
    expect({ status: response.status, body: response.body }).toEqual({
      status: 404,
      body: { status: 404, code: "not_found", message: "Documents not found." },
    });
  });

  it("shows another workspace nothing of a batch", async () => {
    const mine = await aKnowledgeBase();
    const other = await aKnowledgeBase();
    const created = await mine.send("POST", `/datasets/${mine.datasetId}/document/create-by-text`, {
      name: "n",
      text: "t",
    });
    const response = await other.send(
      "GET",
      `/datasets/${mine.datasetId}/documents/${created.body.batch}/indexing-status`,
    );
    expect(response.status).toBe(404);
    expect(response.body.message).toBe("Dataset not found.");
  });
});
