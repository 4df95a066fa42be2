import type { Dataset, Document } from "@service-api/domain";
import {
  aChunk,
  aDataset,
  aDocument,
  aMetadataField,
  anUploadFile,
  aWorkspace,
} from "@service-api/ports/testing";
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

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A new dataset of the seeded workspace, with these documents stored in it. */
async function datasetWith(
  documents: Partial<Document>[] = [],
  over: Partial<Dataset> = {},
): Promise<{ dataset: Dataset; documents: Document[] }> {
  const dataset = aDataset(world.workspace.id, over);
  await server.store.repositories.datasets.save(dataset);
  const saved: Document[] = [];
  for (const each of documents) {
    const document = aDocument(dataset.id, { createdBy: world.member.id, ...each });
    await server.store.repositories.documents.save(document);
    saved.push(document);
  }
  return { dataset, documents: saved };
}

const list = (datasetId: string, query = "", token = world.datasetKey) =>
  call(server.url, "GET", `/v1/datasets/${datasetId}/documents${query}`, { token });
const listedIds = async (datasetId: string, query = "") => {
  const response = await list(datasetId, query);
  expect(response.status).toBe(200);
  return (response.body.data as { id: string }[]).map((item) => item.id);
};
const getDocument = (datasetId: string, documentId: string) =>
  call(server.url, "GET", `/v1/datasets/${datasetId}/documents/${documentId}`, { token: world.datasetKey });
const getDataset = (datasetId: string) =>
  call(server.url, "GET", `/v1/datasets/${datasetId}`, { token: world.datasetKey });
const deleteDocument = (datasetId: string, documentId: string, token = world.datasetKey) =>
  call(server.url, "DELETE", `/v1/datasets/${datasetId}/documents/${documentId}`, { token });
const updateStatus = (datasetId: string, action: string, body: unknown, token = world.datasetKey) =>
  call(server.url, "PATCH", `/v1/datasets/${datasetId}/documents/status/${action}`, { token, body });

const invalidParam = (message: string) => ({ status: 400, code: "invalid_param", message });
const notFound = (message: string) => ({ status: 404, code: "not_found", message });
const DATASET_NOT_FOUND = notFound("Dataset not found.");
const API_DISABLED = { status: 403, code: "forbidden", message: "Dataset api access is not enabled." };
const PAGE_MESSAGE = "page: must be an integer of at least 1.";
const LIMIT_MESSAGE = "limit: must be an integer from 1 to 100.";
const STATUS_MESSAGE =
  "status: must be one of queuing, indexing, paused, error, available, disabled, archived.";
const invalidAction = (action: string) => ({
  status: 400,
  code: "invalid_action",
  message: `Invalid action: ${action}. Must be one of ['enable', 'disable', 'archive', 'un_archive']`,
});
const notCompleted = (name: string) => ({
  status: 400,
  code: "invalid_action",
  message: `Document: ${name} is not completed.`,
});

const LIST_ITEM_KEYS = [
  "id",
  "position",
  "data_source_type",
  "data_source_info",
  "data_source_detail_dict",
  "dataset_process_rule_id",
  "name",
  "created_from",
  "created_by",
  "created_at",
  "tokens",
  "indexing_status",
  "error",
  "enabled",
  "disabled_at",
  "disabled_by",
  "archived",
  "display_status",
  "word_count",
  "hit_count",
  "doc_form",
  "doc_metadata",
  "summary_index_status",
  "need_summary",
];

describe("GET /v1/datasets/{dataset_id}/documents", () => {
  it("lists newest first, then by position descending, then by id, in the paged envelope", async () => {
    const [low, high] = [crypto.randomUUID(), crypto.randomUUID()].sort();
    const { dataset } = await datasetWith([
      { id: "a0000000-0000-4000-8000-000000000001", createdAt: 10, position: 1 },
      { id: "b0000000-0000-4000-8000-000000000002", createdAt: 20, position: 1 },
      { id: "c0000000-0000-4000-8000-000000000003", createdAt: 20, position: 3 },
      { id: high, createdAt: 5, position: 2 },
      { id: low, createdAt: 5, position: 2 },
    ]);
    const response = await list(dataset.id);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(["data", "has_more", "limit", "total", "page"]);
    expect({ ...response.body, data: response.body.data.map((item: { id: string }) => item.id) }).toEqual({
      data: [
        "c0000000-0000-4000-8000-000000000003",
        "b0000000-0000-4000-8000-000000000002",
        "a0000000-0000-4000-8000-000000000001",
        low,
        high,
      ],
      has_more: false,
      limit: 20,
      total: 5,
      page: 1,
    });
  });

  it("pages with has_more true only while page × limit is below the total", async () => {
    const { dataset, documents } = await datasetWith(
      [1, 2, 3, 4, 5].map((n) => ({ createdAt: 100 - n, name: `doc ${n}` })),
    );
    const ids = documents.map((document) => document.id);
    const page = async (query: string) => {
      const { body } = await list(dataset.id, query);
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
    expect(await page("?limit=2&page=4")).toEqual({ data: [], has_more: false, limit: 2, total: 5, page: 4 });
    expect(await page("?limit=5")).toEqual({ data: ids, has_more: false, limit: 5, total: 5, page: 1 });
    expect(await page("?limit=1&page=5")).toEqual({
      data: ids.slice(4),
      has_more: false,
      limit: 1,
      total: 5,
      page: 5,
    });
  });

  it("defaults to page 1 of 20 documents and accepts limits from 1 to 100", async () => {
    const { dataset } = await datasetWith(Array.from({ length: 21 }, (_, n) => ({ createdAt: 1000 - n })));
    const first = await list(dataset.id);
    expect([
      first.body.data.length,
      first.body.has_more,
      first.body.limit,
      first.body.page,
      first.body.total,
    ]).toEqual([20, true, 20, 1, 21]);
    const all = await list(dataset.id, "?limit=100");
    expect([all.body.data.length, all.body.has_more, all.body.limit]).toEqual([21, false, 100]);
    const one = await list(dataset.id, "?limit=1&page=21");
    expect([one.body.data.length, one.body.has_more, one.body.page]).toEqual([1, false, 21]);
    const padded = await list(dataset.id, "?limit=007&page=03");
    expect([padded.body.data.length, padded.body.limit, padded.body.page, padded.body.has_more]).toEqual([
      7,
      7,
      3,
      false,
    ]);
  });

  it.each(["0", "-1", "+1", "1.0", " 1", "1 ", "abc", "1e1", "0x1"])(
    "answers 400 for page=%j",
    async (value) => {
      const response = await list(world.dataset.id, `?page=${encodeURIComponent(value)}`);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(invalidParam(PAGE_MESSAGE));
    },
  );

  it("answers a page far past the end with an empty page, and one past the largest exact integer with 400", async () => {
    for (const page of ["92233720368547", String(Number.MAX_SAFE_INTEGER)]) {
      const response = await list(world.dataset.id, `?limit=100&page=${page}`);
      expect(response.status, response.text).toBe(200);
      expect([response.body.data, response.body.has_more, response.body.page]).toEqual([
        [],
        false,
        Number(page),
      ]);
    }
    for (const page of ["9007199254740992", "92233720368547758", "99999999999999999999"]) {
      const response = await list(world.dataset.id, `?page=${page}`);
      expect(response.body).toEqual(
        invalidParam(`page: must be an integer from 1 to ${Number.MAX_SAFE_INTEGER}.`),
      );
    }
  });

  it.each(["0", "101", "-1", "+1", "1.0", " 1", "ten", "1e2"])("answers 400 for limit=%j", async (value) => {
    const response = await list(world.dataset.id, `?limit=${encodeURIComponent(value)}`);
    expect(response.status).toBe(400);
    expect(response.body).toEqual(invalidParam(LIMIT_MESSAGE));
  });

  it("treats empty parameters as absent", async () => {
    const { dataset, documents } = await datasetWith([{ createdAt: 2 }, { createdAt: 1 }]);
    const response = await list(dataset.id, "?page=&limit=&keyword=&status=");
    expect(response.status).toBe(200);
    expect({ ...response.body, data: response.body.data.map((item: { id: string }) => item.id) }).toEqual({
      data: documents.map((document) => document.id),
      has_more: false,
      limit: 20,
      total: 2,
      page: 1,
    });
  });

  it("counts a repeated parameter by its first value", async () => {
    const { dataset, documents } = await datasetWith([
      { createdAt: 3, name: "alpha" },
      { createdAt: 2, name: "beta", enabled: false },
      { createdAt: 1, name: "alphabet" },
    ]);
    const [alpha, beta, alphabet] = documents.map((document) => document.id);
    const paged = await list(dataset.id, "?page=2&page=x&limit=1&limit=0");
    expect([paged.status, paged.body.page, paged.body.limit, paged.body.data[0].id]).toEqual([
      200,
      2,
      1,
      beta,
    ]);
    expect(await listedIds(dataset.id, "?keyword=alpha&keyword=beta")).toEqual([alpha, alphabet]);
    expect(await listedIds(dataset.id, "?status=disabled&status=bogus")).toEqual([beta]);
    const refused = await list(dataset.id, "?page=x&page=1");
    expect(refused.body).toEqual(invalidParam(PAGE_MESSAGE));
  });

  it("filters by a name substring, ASCII letters in either case, even under 3 characters", async () => {
    const { dataset, documents } = await datasetWith([
      { createdAt: 4, name: "Quarterly REPORT.pdf" },
      { createdAt: 3, name: "report-2024.txt" },
      { createdAt: 2, name: "Summary.md" },
      { createdAt: 1, name: "k" },
    ]);
    const [quarterly, report, summary, k] = documents.map((document) => document.id);
    expect(await listedIds(dataset.id, "?keyword=rEpOrT")).toEqual([quarterly, report]);
    expect(await listedIds(dataset.id, "?keyword=.MD")).toEqual([summary]);
    expect(await listedIds(dataset.id, "?keyword=k")).toEqual([k]);
    expect(await listedIds(dataset.id, "?keyword=Q")).toEqual([quarterly]);
    expect(await listedIds(dataset.id, "?keyword=20")).toEqual([report]);
    const none = await list(dataset.id, "?keyword=nothing-like-this");
    expect(none.body).toEqual({ data: [], has_more: false, limit: 20, total: 0, page: 1 });
    const counted = await list(dataset.id, "?keyword=report&limit=1");
    expect([counted.body.total, counted.body.has_more]).toEqual([2, true]);
  });

  it("matches %, _ and \\ literally, and non-ASCII letters only in their own case", async () => {
    const { dataset, documents } = await datasetWith([
      { createdAt: 8, name: "100% done" },
      { createdAt: 7, name: "100 done" },
      { createdAt: 6, name: "a_b.txt" },
      { createdAt: 5, name: "axb.txt" },
      { createdAt: 4, name: "back\\slash" },
      { createdAt: 3, name: "backslash" },
      { createdAt: 2, name: "Über uns" },
      { createdAt: 1, name: "über alles" },
      { createdAt: 0, name: "éclair" },
    ]);
    const [percent, plain, underscore, axb, backslash, noBackslash, upper, lower, eclair] = documents.map(
      (document) => document.id,
    );
    const find = (keyword: string) => listedIds(dataset.id, `?keyword=${encodeURIComponent(keyword)}`);
    expect(await find("%")).toEqual([percent]);
    expect(await find("0% d")).toEqual([percent]);
    expect(await find("_")).toEqual([underscore]);
    expect(await find("a_b")).toEqual([underscore]);
    expect(await find("\\")).toEqual([backslash]);
    expect(await find("k\\s")).toEqual([backslash]);
    expect(await find("Über")).toEqual([upper]);
    expect(await find("über")).toEqual([lower]);
    expect(await find("ÜBER")).toEqual([upper]);
    expect(await find("üBER")).toEqual([lower]);
    expect(await find("ÉCLAIR")).toEqual([]);
    expect(await find("éclair")).toEqual([eclair]);
    expect(await find("ber")).toEqual([upper, lower]);
    expect(await find("DONE")).toEqual([percent, plain]);
    expect(await find("SLASH")).toEqual([backslash, noBackslash]);
    expect(await find("AXB")).toEqual([axb]);
  });

  it("filters by display status, in any case, active and enabled meaning available", async () => {
    const { dataset, documents } = await datasetWith([
      { createdAt: 9, indexingStatus: "waiting" },
      { createdAt: 8, indexingStatus: "parsing" },
      { createdAt: 7, indexingStatus: "splitting" },
      { createdAt: 6, indexingStatus: "paused" },
      { createdAt: 5, indexingStatus: "indexing", isPaused: true },
      { createdAt: 4, indexingStatus: "error" },
      { createdAt: 3, indexingStatus: "completed" },
      { createdAt: 2, indexingStatus: "completed", enabled: false },
      { createdAt: 1, indexingStatus: "completed", archived: true },
    ]);
    const [waiting, parsing, splitting, paused, pausedIndexing, error, completed, disabled, archived] =
      documents.map((document) => document.id);
    const expected: Record<string, (string | undefined)[]> = {
      queuing: [waiting],
      indexing: [parsing, splitting],
      paused: [paused, pausedIndexing],
      error: [error],
      available: [completed],
      disabled: [disabled],
      archived: [archived],
      AVAILABLE: [completed],
      Archived: [archived],
      active: [completed],
      ACTIVE: [completed],
      enabled: [completed],
      Enabled: [completed],
    };
    for (const [status, ids] of Object.entries(expected)) {
      const response = await list(dataset.id, `?status=${status}`);
      expect([
        status,
        response.body.data.map((item: { id: string }) => item.id),
        response.body.total,
      ]).toEqual([status, ids, ids.length]);
    }
  });

  it("combines the keyword and status filters", async () => {
    const { dataset, documents } = await datasetWith([
      { createdAt: 3, name: "plan.txt" },
      { createdAt: 2, name: "plan-old.txt", enabled: false },
      { createdAt: 1, name: "notes.txt" },
    ]);
    expect(await listedIds(dataset.id, "?keyword=PLAN&status=available")).toEqual([documents[0]!.id]);
  });

  it.each(["bogus", "completed", "waiting", "enable", "available "])(
    "answers 400 for status=%j",
    async (value) => {
      const response = await list(world.dataset.id, `?status=${encodeURIComponent(value)}`);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(invalidParam(STATUS_MESSAGE));
    },
  );

  it("shows each document with the list's keys in order, the raw data source beside Get Document's", async () => {
    const response = await list(world.dataset.id);
    expect(response.status).toBe(200);
    const [notes, guide] = response.body.data;
    expect(Object.keys(guide)).toEqual(LIST_ITEM_KEYS);
    expect(Object.keys(notes)).toEqual(LIST_ITEM_KEYS);
    expect(guide).toEqual({
      id: world.document.id,
      position: 1,
      data_source_type: "upload_file",
      data_source_info: { upload_file_id: world.file.id },
      data_source_detail_dict: {
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
      name: "guide.txt",
      created_from: "api",
      created_by: world.member.id,
      created_at: world.document.createdAt,
      tokens: 512,
      indexing_status: "completed",
      error: null,
      enabled: true,
      disabled_at: null,
      disabled_by: null,
      archived: false,
      display_status: "available",
      word_count: 300,
      hit_count: 5,
      doc_form: "text_model",
      doc_metadata: [{ id: world.fields.author.id, name: "author", type: "string", value: "Ada" }],
      summary_index_status: null,
      need_summary: false,
    });
    expect(notes).toMatchObject({
      id: world.second.id,
      position: 2,
      data_source_info: {},
      data_source_detail_dict: {},
      hit_count: 0,
      doc_metadata: [],
    });
  });

  it("shows every shared field as Get Document does, and data_source_detail_dict as its data_source_info", async () => {
    const { dataset, documents } = await datasetWith([
      { createdAt: 3, indexingStatus: "error", error: "boom", wordCount: 7, tokens: 9 },
      {
        createdAt: 2,
        enabled: false,
        disabledAt: 1_700_000_500,
        disabledBy: world.member.id,
        docForm: "qa_model",
        summaryIndexStatus: "completed",
        needSummary: true,
      },
      { createdAt: 1, dataSourceType: "thirdparty_import", createdFrom: "web", indexingStatus: "waiting" },
    ]);
    const file = anUploadFile(world.member.id, {
      name: "shared.pdf",
      extension: "pdf",
      mimeType: "application/pdf",
    });
    await server.store.repositories.documents.saveUploadFile(world.workspace.id, file);
    await server.store.repositories.documents.save({ ...documents[0]!, uploadFileId: file.id });
    const { body } = await list(dataset.id);
    expect(body.data).toHaveLength(3);
    for (const item of body.data) {
      const detail = (await getDocument(dataset.id, item.id)).body;
      const { data_source_info, data_source_detail_dict, word_count, ...shared } = item;
      expect(data_source_detail_dict).toEqual(detail.data_source_info);
      for (const [key, value] of Object.entries(shared)) expect([key, value]).toEqual([key, detail[key]]);
    }
    expect(
      body.data.map((item: Record<string, unknown>) => [item.data_source_info, item.word_count]),
    ).toEqual([
      [{ upload_file_id: file.id }, 7],
      [{}, 300],
      [{}, 300],
    ]);
    expect(body.data[0].data_source_detail_dict.upload_file.name).toBe("shared.pdf");
    expect(body.data.map((item: Record<string, unknown>) => item.display_status)).toEqual([
      "error",
      "disabled",
      "queuing",
    ]);
  });

  it("adds the five built-in values after the custom ones only when the dataset enables them", async () => {
    const { dataset, documents } = await datasetWith([
      { createdAt: 1, name: "one.txt", updatedAt: 1_700_000_900 },
    ]);
    const field = aMetadataField(dataset.id, { name: "team" });
    await server.store.repositories.metadata.saveField(field);
    await server.store.repositories.metadata.setValue(documents[0]!.id, field.id, "blue");
    const custom = { id: field.id, name: "team", type: "string", value: "blue" };
    expect((await list(dataset.id)).body.data[0].doc_metadata).toEqual([custom]);

    await server.store.repositories.datasets.save({ ...dataset, builtInFieldEnabled: true });
    const listed = (await list(dataset.id)).body.data[0].doc_metadata;
    expect(listed).toEqual([
      custom,
      { id: "built-in", name: "document_name", type: "string", value: "one.txt" },
      { id: "built-in", name: "uploader", type: "string", value: "Ada Lovelace" },
      { id: "built-in", name: "upload_date", type: "time", value: String(documents[0]!.createdAt) },
      { id: "built-in", name: "last_update_date", type: "time", value: "1700000900" },
      { id: "built-in", name: "source", type: "string", value: "file_upload" },
    ]);
    expect(listed).toEqual((await getDocument(dataset.id, documents[0]!.id)).body.doc_metadata);
  });

  it("answers 404 for an unknown, malformed or foreign dataset before looking at the query", async () => {
    const foreignWorkspace = aWorkspace();
    await server.store.repositories.workspaces.save(foreignWorkspace);
    const foreign = aDataset(foreignWorkspace.id);
    await server.store.repositories.datasets.save(foreign);
    for (const datasetId of [crypto.randomUUID(), "not-a-uuid", foreign.id]) {
      // The handler reads the page, the limit and the status: the dataset is checked before all three.
      for (const query of ["?page=0&limit=0&status=bogus", "?status=bogus"]) {
        const response = await list(datasetId, query);
        expect(response.status).toBe(404);
        expect(response.body).toEqual(DATASET_NOT_FOUND);
      }
    }
  });

  it("answers 403 when the dataset's API access is off, before looking at the query", async () => {
    const { dataset } = await datasetWith([{}], { enableApi: false });
    const response = await list(dataset.id, "?page=0");
    expect(response.status).toBe(403);
    expect(response.body).toEqual(API_DISABLED);
  });

  it("finds the dataset whatever the case of its id", async () => {
    const { dataset, documents } = await datasetWith([{}]);
    expect(await listedIds(dataset.id.toUpperCase())).toEqual([documents[0]!.id]);
  });

  it("answers 401 to an app key or no key", async () => {
    const appKey = world.apps.chat.key;
    for (const response of [
      await list(world.dataset.id, "", appKey),
      await call(server.url, "GET", `/v1/datasets/${world.dataset.id}/documents`),
    ]) {
      expect(response.status).toBe(401);
      expect(response.body.code).toBe("unauthorized");
    }
  });
});

describe("DELETE /v1/datasets/{dataset_id}/documents/{document_id}", () => {
  it("answers 204 with no body and the document is gone from Get Document and the list", async () => {
    const { dataset, documents } = await datasetWith([{ createdAt: 2 }, { createdAt: 1 }]);
    const [gone, kept] = documents;
    const response = await deleteDocument(dataset.id, gone!.id);
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expect((await getDocument(dataset.id, gone!.id)).body).toEqual(notFound("Document not found."));
    const listed = await list(dataset.id);
    expect([listed.body.total, listed.body.data.map((item: { id: string }) => item.id)]).toEqual([
      1,
      [kept!.id],
    ]);
    expect(await server.store.repositories.documents.findInDataset(dataset.id, gone!.id)).toBeUndefined();
  });

  it("answers 404 Document Not Exists. for an unknown, malformed or another dataset's document", async () => {
    const { dataset } = await datasetWith([{}]);
    for (const documentId of [crypto.randomUUID(), "not-a-uuid", world.document.id]) {
      const response = await deleteDocument(dataset.id, documentId);
      expect(response.status).toBe(404);
      expect(response.body).toEqual(notFound("Document Not Exists."));
    }
    expect(
      await server.store.repositories.documents.findInDataset(world.dataset.id, world.document.id),
    ).toBeDefined();
  });

  it("answers 403 archived_document_immutable for an archived document, which stays", async () => {
    const { dataset, documents } = await datasetWith([{ archived: true, archivedAt: 1_700_000_200 }]);
    const response = await deleteDocument(dataset.id, documents[0]!.id);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({
      status: 403,
      code: "archived_document_immutable",
      message: "The archived document is not editable.",
    });
    expect((await getDocument(dataset.id, documents[0]!.id)).status).toBe(200);
  });

  it("deletes a document still indexing, whatever the case of its id", async () => {
    const { dataset, documents } = await datasetWith([{ indexingStatus: "indexing" }]);
    const response = await deleteDocument(dataset.id.toUpperCase(), documents[0]!.id.toUpperCase());
    expect(response.status).toBe(204);
    expect((await list(dataset.id)).body.total).toBe(0);
  });

  it("checks the dataset first: 404 for an unknown one, 403 when its API access is off", async () => {
    const unknown = await deleteDocument(crypto.randomUUID(), world.document.id);
    expect(unknown.body).toEqual(DATASET_NOT_FOUND);
    const { dataset, documents } = await datasetWith([{ archived: true }], { enableApi: false });
    const closed = await deleteDocument(dataset.id, documents[0]!.id);
    expect(closed.status).toBe(403);
    expect(closed.body).toEqual(API_DISABLED);
    const missing = await deleteDocument(dataset.id, crypto.randomUUID());
    expect(missing.body).toEqual(API_DISABLED);
  });

  it("drops the dataset's document and word counts, the field counts and the list total at once", async () => {
    const { dataset, documents } = await datasetWith(
      [
        { createdAt: 3, position: 1, wordCount: 100 },
        { createdAt: 2, position: 2, wordCount: 200 },
        { createdAt: 1, position: 3, wordCount: 400, indexingStatus: "error" },
      ],
      { builtInFieldEnabled: true },
    );
    const [first, second, third] = documents;
    const field = aMetadataField(dataset.id, { name: "owner", createdAt: 1 });
    await server.store.repositories.metadata.saveField(field);
    await server.store.repositories.metadata.setValue(first!.id, field.id, "me");
    await server.store.repositories.metadata.setValue(second!.id, field.id, "you");
    const counts = async () => {
      const { body } = await getDataset(dataset.id);
      const fields = (
        await call(server.url, "GET", `/v1/datasets/${dataset.id}/metadata`, { token: world.datasetKey })
      ).body.doc_metadata;
      return {
        document_count: body.document_count,
        total_documents: body.total_documents,
        total_available_documents: body.total_available_documents,
        word_count: body.word_count,
        listed: (await list(dataset.id)).body.total,
        fields: fields.map((each: { name: string; count: number }) => [each.name, each.count]),
      };
    };
    const fieldCounts = (custom: number, all: number) => [
      ["owner", custom],
      ...["document_name", "uploader", "upload_date", "last_update_date", "source"].map((name) => [
        name,
        all,
      ]),
    ];
    expect(await counts()).toEqual({
      document_count: 3,
      total_documents: 3,
      total_available_documents: 2,
      word_count: 700,
      listed: 3,
      fields: fieldCounts(2, 3),
    });
    expect((await deleteDocument(dataset.id, first!.id)).status).toBe(204);
    expect(await counts()).toEqual({
      document_count: 2,
      total_documents: 2,
      total_available_documents: 1,
      word_count: 600,
      listed: 2,
      fields: fieldCounts(1, 2),
    });
    expect((await deleteDocument(dataset.id, third!.id)).status).toBe(204);
    expect(await counts()).toEqual({
      document_count: 1,
      total_documents: 1,
      total_available_documents: 1,
      word_count: 200,
      listed: 1,
      fields: fieldCounts(1, 1),
    });
  });

  it("deletes the document's chunks and values; the other documents keep their positions", async () => {
    const { dataset, documents } = await datasetWith([
      { createdAt: 3, position: 1 },
      { createdAt: 2, position: 2 },
      { createdAt: 1, position: 3 },
    ]);
    const [first, middle, last] = documents;
    await server.store.repositories.documents.saveChunks([
      aChunk(middle!.id, { content: "abc", hitCount: 4 }),
      aChunk(middle!.id, { content: "defg", hitCount: 1, position: 2 }),
      aChunk(last!.id, { content: "kept", hitCount: 2 }),
    ]);
    const field = aMetadataField(dataset.id);
    await server.store.repositories.metadata.saveField(field);
    await server.store.repositories.metadata.setValue(middle!.id, field.id, "x");
    expect((await deleteDocument(dataset.id, middle!.id)).status).toBe(204);
    const { repositories } = server.store;
    expect(await repositories.documents.listChunks(middle!.id)).toEqual([]);
    expect(await repositories.metadata.valuesOf(middle!.id)).toEqual([]);
    expect((await repositories.documents.listChunks(last!.id)).map((chunk) => chunk.content)).toEqual([
      "kept",
    ]);
    const { body } = await list(dataset.id);
    expect(body.data.map((item: { id: string; position: number }) => [item.id, item.position])).toEqual([
      [first!.id, 1],
      [last!.id, 3],
    ]);
    expect(body.data[1].hit_count).toBe(2);
  });

  it("deletes the document's upload file unless another document uses it", async () => {
    const shared = anUploadFile(world.member.id, { name: "shared.txt" });
    const own = anUploadFile(world.member.id, { name: "own.txt" });
    for (const file of [shared, own])
      await server.store.repositories.documents.saveUploadFile(world.workspace.id, file);
    const { dataset, documents } = await datasetWith([
      { createdAt: 3, uploadFileId: shared.id },
      { createdAt: 2, uploadFileId: shared.id },
      { createdAt: 1, uploadFileId: own.id },
    ]);
    const { repositories } = server.store;
    expect((await deleteDocument(dataset.id, documents[0]!.id)).status).toBe(204);
    expect(await repositories.documents.findUploadFile(shared.id)).toBeDefined();
    expect((await getDocument(dataset.id, documents[1]!.id)).body.data_source_info.upload_file.id).toBe(
      shared.id,
    );
    expect((await deleteDocument(dataset.id, documents[2]!.id)).status).toBe(204);
    expect(await repositories.documents.findUploadFile(own.id)).toBeUndefined();
  });
});

describe("PATCH /v1/datasets/{dataset_id}/documents/status/{action}", () => {
  it.each(["Enable", "ENABLE", "remove", "unarchive", "un-archive", "delete"])(
    "answers 400 invalid_action for action %j, even with an empty list",
    async (action) => {
      const { dataset, documents } = await datasetWith([{}]);
      for (const body of [{ document_ids: [] }, { document_ids: [documents[0]!.id] }]) {
        const response = await updateStatus(dataset.id, action, body);
        expect(response.status).toBe(400);
        expect(response.body).toEqual(invalidAction(action));
      }
      expect((await getDocument(dataset.id, documents[0]!.id)).body.enabled).toBe(true);
    },
  );

  it("checks the action before the body", async () => {
    const path = `/v1/datasets/${world.dataset.id}/documents/status/bogus`;
    const token = world.datasetKey;
    const withoutBody = await call(server.url, "PATCH", path, { token });
    expect(withoutBody.body).toEqual(invalidAction("bogus"));
    const brokenJson = await call(server.url, "PATCH", path, {
      token,
      rawBody: "{",
      headers: { "content-type": "application/json" },
    });
    expect(brokenJson.body).toEqual(invalidAction("bogus"));
    const missingField = await updateStatus(world.dataset.id, "bogus", {});
    expect(missingField.body).toEqual(invalidAction("bogus"));
  });

  it("checks the dataset before the action: 404 unknown, 403 API access off", async () => {
    const unknown = await updateStatus(crypto.randomUUID(), "bogus", { document_ids: [] });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(DATASET_NOT_FOUND);
    const { dataset } = await datasetWith([], { enableApi: false });
    const closed = await updateStatus(dataset.id, "bogus", { document_ids: [] });
    expect(closed.status).toBe(403);
    expect(closed.body).toEqual(API_DISABLED);
  });

  it("requires document_ids as an array of strings", async () => {
    for (const [body, message] of [
      [{}, "document_ids: must be a list of document ids."],
      [{ document_ids: "x" }, "document_ids: must be a list of document ids."],
      [{ document_ids: null }, "document_ids: must be a list of document ids."],
      [{ document_ids: [1] }, "document_ids.0: must be a document id."],
      [{ ids: [] }, "document_ids: must be a list of document ids."],
    ] as const) {
      const response = await updateStatus(world.dataset.id, "enable", body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ status: 400, code: "invalid_param", message });
    }
    const notObject = await updateStatus(world.dataset.id, "enable", ["x"]);
    expect([notObject.status, notObject.body.code]).toEqual([400, "invalid_param"]);
    expect(notObject.body.message).toMatch(/^body: /);
  });

  it("answers 400 bad_request to an empty or broken JSON body and 415 to a non-JSON one", async () => {
    const path = `/v1/datasets/${world.dataset.id}/documents/status/enable`;
    const token = world.datasetKey;
    for (const rawBody of ["", "{"]) {
      const response = await call(server.url, "PATCH", path, {
        token,
        rawBody,
        headers: { "content-type": "application/json" },
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        status: 400,
        code: "bad_request",
        message: "Invalid JSON payload received or JSON payload is empty.",
      });
    }
    const text = await call(server.url, "PATCH", path, {
      token,
      rawBody: "document_ids=x",
      headers: { "content-type": "text/plain" },
    });
    expect([text.status, text.body.code]).toEqual([415, "unsupported_media_type"]);
  });

  it("answers 200 and changes nothing for an empty list", async () => {
    const { dataset, documents } = await datasetWith([{}]);
    for (const action of ["enable", "disable", "archive", "un_archive"]) {
      const response = await updateStatus(dataset.id, action, { document_ids: [] });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ result: "success" });
    }
    const stored = await server.store.repositories.documents.findInDataset(dataset.id, documents[0]!.id);
    expect(stored).toEqual(documents[0]);
  });

  it("disables as the workspace owner, now; display status, list filter and available count follow", async () => {
    const { dataset, documents } = await datasetWith([
      { createdAt: 2, name: "a.txt" },
      { createdAt: 1, name: "b.txt" },
    ]);
    const [a, b] = documents;
    expect((await getDataset(dataset.id)).body.total_available_documents).toBe(2);
    const before = nowSeconds();
    const response = await updateStatus(dataset.id, "disable", { document_ids: [a!.id] });
    const after = nowSeconds();
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ result: "success" });
    const detail = (await getDocument(dataset.id, a!.id)).body;
    expect(detail).toMatchObject({
      enabled: false,
      disabled_by: world.member.id,
      display_status: "disabled",
      archived: false,
    });
    expect(detail.disabled_at).toBeGreaterThanOrEqual(before);
    expect(detail.disabled_at).toBeLessThanOrEqual(after);
    expect(detail.updated_at).toBeGreaterThanOrEqual(before);
    expect(detail.updated_at).toBeLessThanOrEqual(after);
    expect(await listedIds(dataset.id, "?status=disabled")).toEqual([a!.id]);
    expect(await listedIds(dataset.id, "?status=available")).toEqual([b!.id]);
    const datasetBody = (await getDataset(dataset.id)).body;
    expect([datasetBody.total_available_documents, datasetBody.total_documents]).toEqual([1, 2]);
    expect((await getDocument(dataset.id, b!.id)).body).toMatchObject({
      enabled: true,
      updated_at: b!.updatedAt,
    });
  });

  it("enables, clearing disabled_at and disabled_by", async () => {
    const { dataset, documents } = await datasetWith([
      { enabled: false, disabledAt: 1_700_000_300, disabledBy: world.member.id },
    ]);
    expect((await getDataset(dataset.id)).body.total_available_documents).toBe(0);
    const before = nowSeconds();
    const response = await updateStatus(dataset.id, "enable", { document_ids: [documents[0]!.id] });
    expect(response.body).toEqual({ result: "success" });
    const detail = (await getDocument(dataset.id, documents[0]!.id)).body;
    expect(detail).toMatchObject({
      enabled: true,
      disabled_at: null,
      disabled_by: null,
      display_status: "available",
    });
    expect(detail.updated_at).toBeGreaterThanOrEqual(before);
    expect(detail.updated_at).toBeLessThanOrEqual(nowSeconds());
    expect((await getDataset(dataset.id)).body.total_available_documents).toBe(1);
    expect(await listedIds(dataset.id, "?status=active")).toEqual([documents[0]!.id]);
  });

  it("archives as the owner and un-archives, clearing the archive fields", async () => {
    const { dataset, documents } = await datasetWith([{ createdAt: 2 }, { createdAt: 1 }]);
    const [a, b] = documents;
    const { repositories } = server.store;
    const before = nowSeconds();
    expect((await updateStatus(dataset.id, "archive", { document_ids: [a!.id] })).body).toEqual({
      result: "success",
    });
    const after = nowSeconds();
    const archived = await repositories.documents.findInDataset(dataset.id, a!.id);
    expect(archived).toMatchObject({ archived: true, archivedBy: world.member.id, enabled: true });
    expect(archived!.archivedAt).toBeGreaterThanOrEqual(before);
    expect(archived!.archivedAt).toBeLessThanOrEqual(after);
    expect(archived!.updatedAt).toBeGreaterThanOrEqual(before);
    expect((await getDocument(dataset.id, a!.id)).body).toMatchObject({
      archived: true,
      display_status: "archived",
    });
    expect(await listedIds(dataset.id, "?status=archived")).toEqual([a!.id]);
    expect(await listedIds(dataset.id, "?status=available")).toEqual([b!.id]);
    expect((await getDataset(dataset.id)).body.total_available_documents).toBe(1);

    expect((await updateStatus(dataset.id, "un_archive", { document_ids: [a!.id] })).body).toEqual({
      result: "success",
    });
    expect(await repositories.documents.findInDataset(dataset.id, a!.id)).toMatchObject({
      archived: false,
      archivedAt: null,
      archivedBy: null,
    });
    expect((await getDocument(dataset.id, a!.id)).body).toMatchObject({
      archived: false,
      display_status: "available",
    });
    expect(await listedIds(dataset.id, "?status=archived")).toEqual([]);
    expect((await getDataset(dataset.id)).body.total_available_documents).toBe(2);
  });

  it("leaves documents already in the target state untouched, updated_at included", async () => {
    const { dataset, documents } = await datasetWith([
      {
        createdAt: 4,
        enabled: false,
        disabledAt: 1_700_000_300,
        disabledBy: "someone",
        updatedAt: 1_700_000_301,
      },
      { createdAt: 3, enabled: true, updatedAt: 1_700_000_302 },
      {
        createdAt: 2,
        archived: true,
        archivedAt: 1_700_000_400,
        archivedBy: "someone",
        updatedAt: 1_700_000_401,
      },
      { createdAt: 1, archived: false, updatedAt: 1_700_000_402 },
    ]);
    const [disabled, enabled, archived, unarchived] = documents;
    for (const [action, document] of [
      ["disable", disabled],
      ["enable", enabled],
      ["archive", archived],
      ["un_archive", unarchived],
    ] as const) {
      const response = await updateStatus(dataset.id, action, { document_ids: [document!.id] });
      expect(response.body).toEqual({ result: "success" });
      expect(await server.store.repositories.documents.findInDataset(dataset.id, document!.id)).toEqual(
        document,
      );
    }
  });

  it("changes only the listed documents not yet in the target state", async () => {
    const { dataset, documents } = await datasetWith([
      {
        createdAt: 3,
        enabled: false,
        disabledAt: 1_700_000_300,
        disabledBy: "someone",
        updatedAt: 1_700_000_301,
      },
      { createdAt: 2 },
      { createdAt: 1 },
    ]);
    const [already, toDisable, unlisted] = documents;
    const response = await updateStatus(dataset.id, "disable", {
      document_ids: [already!.id, toDisable!.id],
    });
    expect(response.body).toEqual({ result: "success" });
    const { repositories } = server.store;
    expect(await repositories.documents.findInDataset(dataset.id, already!.id)).toEqual(already);
    expect(await repositories.documents.findInDataset(dataset.id, toDisable!.id)).toMatchObject({
      enabled: false,
      disabledBy: world.member.id,
    });
    expect(await repositories.documents.findInDataset(dataset.id, unlisted!.id)).toEqual(unlisted);
  });

  it("refuses to disable a document not completed, naming the first in request order, and writes nothing", async () => {
    const { dataset, documents } = await datasetWith([
      { createdAt: 3, name: "done.txt" },
      { createdAt: 2, name: "draft.txt", indexingStatus: "indexing" },
      { createdAt: 1, name: "broken.txt", indexingStatus: "error" },
    ]);
    const [done, draft, broken] = documents;
    const first = await updateStatus(dataset.id, "disable", {
      document_ids: [done!.id, draft!.id, broken!.id],
    });
    expect(first.status).toBe(400);
    expect(first.body).toEqual(notCompleted("draft.txt"));
    const reversed = await updateStatus(dataset.id, "disable", {
      document_ids: [broken!.id, draft!.id, done!.id],
    });
    expect(reversed.body).toEqual(notCompleted("broken.txt"));
    const { repositories } = server.store;
    for (const document of documents)
      expect(await repositories.documents.findInDataset(dataset.id, document.id)).toEqual(document);
    expect((await getDataset(dataset.id)).body.total_available_documents).toBe(1);
  });

  it("refuses to disable a document not completed even when it is disabled already", async () => {
    const { dataset, documents } = await datasetWith([
      { name: "stuck.txt", indexingStatus: "paused", enabled: false, disabledAt: 1, disabledBy: "someone" },
    ]);
    const response = await updateStatus(dataset.id, "disable", { document_ids: [documents[0]!.id] });
    expect(response.body).toEqual(notCompleted("stuck.txt"));
  });

  it("lets other actions through on documents not completed", async () => {
    const { dataset, documents } = await datasetWith([{ indexingStatus: "waiting", enabled: false }]);
    for (const action of ["enable", "archive", "un_archive"]) {
      const response = await updateStatus(dataset.id, action, { document_ids: [documents[0]!.id] });
      expect([action, response.status, response.body]).toEqual([action, 200, { result: "success" }]);
    }
    expect(
      await server.store.repositories.documents.findInDataset(dataset.id, documents[0]!.id),
    ).toMatchObject({
      enabled: true,
      archived: false,
    });
  });

  it("skips ids of other datasets, unknown and malformed ids, even not completed ones", async () => {
    const { dataset, documents } = await datasetWith([{}]);
    const other = await datasetWith([
      { name: "elsewhere.txt", indexingStatus: "parsing" },
      { name: "ok.txt" },
    ]);
    const response = await updateStatus(dataset.id, "disable", {
      document_ids: [
        other.documents[0]!.id,
        other.documents[1]!.id,
        crypto.randomUUID(),
        "nope",
        documents[0]!.id,
      ],
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ result: "success" });
    const { repositories } = server.store;
    expect(await repositories.documents.findInDataset(dataset.id, documents[0]!.id)).toMatchObject({
      enabled: false,
    });
    for (const document of other.documents)
      expect(await repositories.documents.findInDataset(other.dataset.id, document.id)).toEqual(document);
  });

  it("collapses repeated ids and matches ids in any case", async () => {
    const { dataset, documents } = await datasetWith([{ createdAt: 2 }, { createdAt: 1 }]);
    const [a, b] = documents;
    const response = await updateStatus(dataset.id, "archive", {
      document_ids: [a!.id, a!.id.toUpperCase(), b!.id.toUpperCase(), a!.id],
    });
    expect(response.body).toEqual({ result: "success" });
    expect(await listedIds(dataset.id, "?status=archived")).toEqual([a!.id, b!.id]);
    expect((await getDataset(dataset.id)).body.total_available_documents).toBe(0);
  });
});

describe("a knowledge key of another workspace", () => {
  it("reaches none of these documents", async () => {
    const workspace = aWorkspace();
    await server.store.repositories.workspaces.save(workspace);
    const key = await issueKey(server.store.repositories, workspace.id);
    expect((await list(world.dataset.id, "", key)).body).toEqual(DATASET_NOT_FOUND);
    expect((await deleteDocument(world.dataset.id, world.second.id, key)).body).toEqual(DATASET_NOT_FOUND);
    expect(
      (await updateStatus(world.dataset.id, "disable", { document_ids: [world.second.id] }, key)).body,
    ).toEqual(DATASET_NOT_FOUND);
    expect((await getDocument(world.dataset.id, world.second.id)).body.enabled).toBe(true);
  });
});
