import type { Dataset, Document, MetadataField } from "@service-api/domain";
import { aDataset, aDocument, aMetadataField, aWorkspace } from "@service-api/ports/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiResponse, call, type RequestOptions } from "./support/http.js";
import { issueKey, type SeededWorkspace, seedWorkspace } from "./support/seed.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
let world: SeededWorkspace;
/** Another workspace of the same database: its datasets are out of reach of `world`'s key. */
let elsewhere: SeededWorkspace;

beforeAll(async () => {
  server = await startTestServer();
  world = await seedWorkspace(server.store.repositories);
  elsewhere = await seedWorkspace(server.store.repositories);
});
afterAll(() => server.stop());

// ---------------------------------------------------------------------------------------------
// Answers

const invalidParam = (message: string | ReturnType<typeof expect.stringMatching>) => ({
  status: 400,
  code: "invalid_param",
  message,
});
const notFound = (message: string) => ({ status: 404, code: "not_found", message });
const DATASET_NOT_FOUND = notFound("Dataset not found.");
const METADATA_NOT_FOUND = notFound("Metadata not found.");
const DOCUMENT_NOT_FOUND = notFound("Document not found.");
const API_DISABLED = { status: 403, code: "forbidden", message: "Dataset api access is not enabled." };
const WORKSPACE_ARCHIVED = { status: 403, code: "forbidden", message: "The workspace is archived." };
const BAD_JSON = {
  status: 400,
  code: "bad_request",
  message: "Invalid JSON payload received or JSON payload is empty.",
};
const UNSUPPORTED_MEDIA_TYPE = { status: 415, code: "unsupported_media_type", message: expect.any(String) };
const NO_KEY = {
  status: 401,
  code: "unauthorized",
  message: "Authorization header must be provided and start with 'Bearer'",
};
const INVALID_KEY = { status: 401, code: "unauthorized", message: "Access token is invalid" };
const SUCCESS = { result: "success" };
const BLANK = invalidParam("name: Name must not be blank.");
const TOO_LONG = invalidParam("name: Metadata name cannot exceed 255 characters.");
/** A name no store holds as sent: PostgreSQL refuses NUL; UTF-8 has no lone surrogate. */
const UNSTORABLE = invalidParam("name: Name must not contain NUL characters or unpaired surrogates.");
const BUILT_IN_NAME = invalidParam("Metadata name already exists in Built-in fields.");
const TAKEN = invalidParam("Metadata name already exists.");
const BAD_TYPE = invalidParam("type: must be string, number or time.");
const BAD_ACTION = invalidParam("action: must be enable or disable.");
const BUILT_IN_NAMES = ["document_name", "uploader", "upload_date", "last_update_date", "source"] as const;
const BUILT_IN_FIELDS = [
  { name: "document_name", type: "string" },
  { name: "uploader", type: "string" },
  { name: "upload_date", type: "time" },
  { name: "last_update_date", type: "time" },
  { name: "source", type: "string" },
];

function expectAnswer(response: ApiResponse, status: number, body: unknown) {
  expect({ status: response.status, body: response.body }).toEqual({ status, body });
}

function expectNoContent(response: ApiResponse) {
  expect({ status: response.status, text: response.text }).toEqual({ status: 204, text: "" });
}

// ---------------------------------------------------------------------------------------------
// A knowledge base of its own per test: two documents, three fields, three values

interface KnowledgeBase {
  workspaceId: string;
  dataset: Dataset;
  first: Document;
  second: Document;
  fields: { label: MetadataField; score: MetadataField; when: MetadataField };
}

async function aKnowledgeBase(over: Partial<Dataset> = {}, workspaceId = world.workspace.id) {
  const { datasets, documents, metadata } = server.store.repositories;
  const dataset = aDataset(workspaceId, over);
  await datasets.save(dataset);
  const first = aDocument(dataset.id, { name: "first.txt", createdBy: world.member.id });
  const second = aDocument(dataset.id, { name: "second.md", position: 2, createdBy: world.member.id });
  await documents.save(first);
  await documents.save(second);
  const fields = {
    label: aMetadataField(dataset.id, { name: "label", type: "string", createdAt: 1 }),
    score: aMetadataField(dataset.id, { name: "score", type: "number", createdAt: 2 }),
    when: aMetadataField(dataset.id, { name: "when", type: "time", createdAt: 3 }),
  };
  for (const field of Object.values(fields)) await metadata.saveField(field);
  await metadata.setValue(first.id, fields.label.id, "draft");
  await metadata.setValue(first.id, fields.score.id, "7");
  await metadata.setValue(second.id, fields.label.id, "final");
  return { workspaceId, dataset, first, second, fields } satisfies KnowledgeBase;
}

/** What the store holds for the knowledge base, read past the API: fields, counts, values, flags. */
async function stored(kb: KnowledgeBase) {
  const { datasets, metadata } = server.store.repositories;
  const dataset = await datasets.findInWorkspace(kb.workspaceId, kb.dataset.id);
  return {
    fields: await metadata.listFieldUsage(kb.dataset.id),
    first: await metadata.valuesOf(kb.first.id),
    second: await metadata.valuesOf(kb.second.id),
    builtInFieldEnabled: dataset?.builtInFieldEnabled,
    updatedAt: dataset?.updatedAt,
  };
}

/** Runs the refused request and checks that the store holds exactly what it held before. */
async function expectNothingWritten(kb: KnowledgeBase, request: () => Promise<unknown>) {
  const before = await stored(kb);
  await request();
  expect(await stored(kb)).toEqual(before);
}

const entry = (field: MetadataField, value: string) => ({
  id: field.id,
  name: field.name,
  type: field.type,
  value,
});
const usage = (field: MetadataField, count: number) => ({
  id: field.id,
  name: field.name,
  type: field.type,
  count,
});

// ---------------------------------------------------------------------------------------------
// Requests

const send = (method: string, path: string, options: RequestOptions = {}) =>
  call(server.url, method, path, { token: world.datasetKey, ...options });

const createField = (datasetId: string, body: unknown, options: RequestOptions = {}) =>
  send("POST", `/v1/datasets/${datasetId}/metadata`, { body, ...options });
const renameField = (datasetId: string, fieldId: string, body: unknown, options: RequestOptions = {}) =>
  send("PATCH", `/v1/datasets/${datasetId}/metadata/${fieldId}`, { body, ...options });
const deleteField = (datasetId: string, fieldId: string, options: RequestOptions = {}) =>
  send("DELETE", `/v1/datasets/${datasetId}/metadata/${fieldId}`, options);
const builtInFields = (datasetId: string, options: RequestOptions = {}) =>
  send("GET", `/v1/datasets/${datasetId}/metadata/built-in`, options);
const toggleBuiltIn = (datasetId: string, action: string, options: RequestOptions = {}) =>
  send("POST", `/v1/datasets/${datasetId}/metadata/built-in/${action}`, options);
const setValues = (datasetId: string, body: unknown, options: RequestOptions = {}) =>
  send("POST", `/v1/datasets/${datasetId}/documents/metadata`, { body, ...options });
const listFields = async (datasetId: string) => {
  const response = await send("GET", `/v1/datasets/${datasetId}/metadata`);
  expect(response.status).toBe(200);
  return response.body;
};
const docMetadata = async (datasetId: string, documentId: string) => {
  const response = await send("GET", `/v1/datasets/${datasetId}/documents/${documentId}?metadata=only`);
  expect(response.status).toBe(200);
  return response.body.doc_metadata;
};

/** One operation on one document, `partial_update` as given (absent when undefined). */
const operation = (
  documentId: string,
  items: { id: string; value?: unknown; name?: unknown }[],
  partialUpdate?: boolean,
) => ({
  document_id: documentId,
  metadata_list: items,
  ...(partialUpdate === undefined ? {} : { partial_update: partialUpdate }),
});

// ---------------------------------------------------------------------------------------------
// Dataset checks, keys and order, the same for every metadata operation

interface Target {
  datasetId: string;
  fieldId: string;
  documentId: string;
}
interface Request {
  method: string;
  path: string;
  body?: unknown;
  /** True for operations that never read a body. */
  bodiless?: boolean;
  /** The answer to the request when it succeeds: status and body (`""` for none). */
  success: [number, unknown];
}

const OPERATIONS: Record<string, (target: Target) => Request> = {
  "Create Metadata Field": ({ datasetId }) => ({
    method: "POST",
    path: `/v1/datasets/${datasetId}/metadata`,
    body: { type: "string", name: "fresh" },
    success: [201, { id: expect.any(String), type: "string", name: "fresh" }],
  }),
  "Update Metadata Field": ({ datasetId, fieldId }) => ({
    method: "PATCH",
    path: `/v1/datasets/${datasetId}/metadata/${fieldId}`,
    body: { name: "renamed" },
    success: [200, { id: fieldId.toLowerCase(), type: "string", name: "renamed" }],
  }),
  "Delete Metadata Field": ({ datasetId, fieldId }) => ({
    method: "DELETE",
    path: `/v1/datasets/${datasetId}/metadata/${fieldId}`,
    bodiless: true,
    success: [204, ""],
  }),
  "Get Built-in Metadata Fields": ({ datasetId }) => ({
    method: "GET",
    path: `/v1/datasets/${datasetId}/metadata/built-in`,
    bodiless: true,
    success: [200, { fields: BUILT_IN_FIELDS }],
  }),
  "Toggle Built-in Metadata Fields": ({ datasetId }) => ({
    method: "POST",
    path: `/v1/datasets/${datasetId}/metadata/built-in/enable`,
    bodiless: true,
    success: [200, SUCCESS],
  }),
  "Update Document Metadata": ({ datasetId, fieldId, documentId }) => ({
    method: "POST",
    path: `/v1/datasets/${datasetId}/documents/metadata`,
    body: { operation_data: [operation(documentId, [{ id: fieldId, value: "changed" }], true)] },
    success: [200, SUCCESS],
  }),
};

const targetOf = (kb: KnowledgeBase, datasetId = kb.dataset.id): Target => ({
  datasetId,
  fieldId: kb.fields.label.id,
  documentId: kb.first.id,
});

/** Sends a raw body with the request, except on GET, which carries none. */
const withRawBody = (request: Request, rawBody: string, headers: Record<string, string>) =>
  send(request.method, request.path, { ...(request.method === "GET" ? {} : { rawBody }), headers });

const sendRequest = (request: Request, options: RequestOptions = {}) =>
  send(request.method, request.path, {
    ...(request.body === undefined ? {} : { body: request.body }),
    ...options,
  });

describe.each(Object.keys(OPERATIONS))("dataset checks and keys of %s", (name) => {
  const requestFor = OPERATIONS[name]!;

  it("answers 401 without a key and with an app key, writing nothing", async () => {
    const kb = await aKnowledgeBase();
    const request = requestFor(targetOf(kb));
    await expectNothingWritten(kb, async () => {
      expectAnswer(await sendRequest(request, { token: undefined }), 401, NO_KEY);
      expectAnswer(await sendRequest(request, { token: world.apps.chat.key }), 401, INVALID_KEY);
      expectAnswer(await sendRequest(request, { token: world.apps.workflow.key }), 401, INVALID_KEY);
    });
  });

  it("answers 404 Dataset not found for an unknown dataset id, UUID or not", async () => {
    const kb = await aKnowledgeBase();
    await expectNothingWritten(kb, async () => {
      for (const datasetId of [crypto.randomUUID(), "not-a-uuid"]) {
        expectAnswer(await sendRequest(requestFor(targetOf(kb, datasetId))), 404, DATASET_NOT_FOUND);
      }
    });
  });

  it("answers 404 Dataset not found for another workspace's dataset, writing nothing", async () => {
    const kb = await aKnowledgeBase({}, elsewhere.workspace.id);
    await expectNothingWritten(kb, async () => {
      expectAnswer(await sendRequest(requestFor(targetOf(kb))), 404, DATASET_NOT_FOUND);
    });
    // Its own workspace's key reaches it.
    const request = requestFor(targetOf(kb));
    expectAnswer(await sendRequest(request, { token: elsewhere.datasetKey }), ...request.success);
  });

  it("answers 403 when the dataset's API access is off, writing nothing", async () => {
    const kb = await aKnowledgeBase({ enableApi: false });
    await expectNothingWritten(kb, async () => {
      expectAnswer(await sendRequest(requestFor(targetOf(kb))), 403, API_DISABLED);
    });
  });

  it("answers 403 for a key of an archived workspace", async () => {
    const { repositories } = server.store;
    const archived = aWorkspace({ status: "archived" });
    await repositories.workspaces.save(archived);
    const token = await issueKey(repositories, archived.id);
    const kb = await aKnowledgeBase({}, archived.id);
    await expectNothingWritten(kb, async () => {
      expectAnswer(await sendRequest(requestFor(targetOf(kb)), { token }), 403, WORKSPACE_ARCHIVED);
    });
  });

  it("checks the dataset before the body: an unknown dataset with a non-JSON body is 404, not 415", async () => {
    const request = requestFor(targetOf(await aKnowledgeBase(), crypto.randomUUID()));
    const response = await withRawBody(request, "name=fresh", { "content-type": "text/plain" });
    expectAnswer(response, 404, DATASET_NOT_FOUND);
  });

  it("checks API access before the body: an empty body on a closed dataset is 403", async () => {
    const kb = await aKnowledgeBase({ enableApi: false });
    const request = requestFor(targetOf(kb));
    for (const headers of [{}, { "content-type": "application/json" }] as Record<string, string>[]) {
      expectAnswer(await send(request.method, request.path, { headers }), 403, API_DISABLED);
    }
    const broken = await withRawBody(request, "{", { "content-type": "application/json" });
    expectAnswer(broken, 403, API_DISABLED);
  });

  it("finds the dataset, field and document by their ids in any case", async () => {
    const kb = await aKnowledgeBase();
    const target = targetOf(kb);
    const request = requestFor({
      datasetId: target.datasetId.toUpperCase(),
      fieldId: target.fieldId.toUpperCase(),
      documentId: target.documentId.toUpperCase(),
    });
    expectAnswer(await sendRequest(request), ...request.success);
  });

  if (requestFor({ datasetId: "d", fieldId: "f", documentId: "x" }).bodiless) {
    it("never reads a body: succeeds whatever body and media type come with it", async () => {
      const kb = await aKnowledgeBase();
      const request = requestFor(targetOf(kb));
      const response = await withRawBody(request, "{", { "content-type": "text/plain" });
      expectAnswer(response, ...request.success);
    });
  } else {
    it("answers 415 for a body that is not JSON, after the dataset checks", async () => {
      const kb = await aKnowledgeBase();
      const request = requestFor(targetOf(kb));
      await expectNothingWritten(kb, async () => {
        for (const headers of [
          { "content-type": "text/plain" },
          { "content-type": "application/x-www-form-urlencoded" },
        ]) {
          const response = await send(request.method, request.path, {
            rawBody: JSON.stringify(request.body),
            headers,
          });
          expectAnswer(response, 415, UNSUPPORTED_MEDIA_TYPE);
        }
      });
    });

    it("answers 400 bad_request for an empty or broken JSON body", async () => {
      const kb = await aKnowledgeBase();
      const request = requestFor(targetOf(kb));
      await expectNothingWritten(kb, async () => {
        for (const rawBody of ["", "{", "not json", '{"name": "x",}']) {
          const response = await send(request.method, request.path, {
            rawBody,
            headers: { "content-type": "application/json" },
          });
          expectAnswer(response, 400, BAD_JSON);
        }
        const noBody = await send(request.method, request.path, {
          headers: { "content-type": "application/json" },
        });
        expectAnswer(noBody, 400, BAD_JSON);
      });
    });

    it("answers 400 invalid_param for a body that is not an object", async () => {
      const kb = await aKnowledgeBase();
      const request = requestFor(targetOf(kb));
      await expectNothingWritten(kb, async () => {
        for (const body of [[], [request.body]]) {
          expectAnswer(
            await send(request.method, request.path, { body }),
            400,
            invalidParam(expect.stringMatching(/^body: ./)),
          );
        }
        // JSON that is a plain value is JSON all the same: not an object, not broken.
        for (const rawBody of ["42", '"x"', "null", "true"]) {
          expectAnswer(
            await send(request.method, request.path, {
              rawBody: new TextEncoder().encode(rawBody),
              headers: { "content-type": "application/json" },
            }),
            400,
            invalidParam(expect.stringMatching(/^body: ./)),
          );
        }
      });
    });
  }
});

// ---------------------------------------------------------------------------------------------
// 3.1 Create

describe("POST /v1/datasets/{dataset_id}/metadata", () => {
  it.each(["string", "number", "time"] as const)(
    "creates a %s field: 201 with the field, listed last of the custom fields with count 0",
    async (type) => {
      const kb = await aKnowledgeBase();
      const response = await createField(kb.dataset.id, { type, name: "fresh" });
      expect(response.status).toBe(201);
      expect(response.body).toEqual({ id: expect.any(String), type, name: "fresh" });
      expect(response.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(await listFields(kb.dataset.id)).toEqual({
        doc_metadata: [
          usage(kb.fields.label, 2),
          usage(kb.fields.score, 1),
          usage(kb.fields.when, 0),
          { id: response.body.id, name: "fresh", type, count: 0 },
        ],
        built_in_field_enabled: false,
      });
      expect(
        await server.store.repositories.metadata.findField(kb.dataset.id, response.body.id),
      ).toMatchObject({
        id: response.body.id,
        datasetId: kb.dataset.id,
        name: "fresh",
        type,
      });
    },
  );

  it("lists fields created within one second in the order they were created", async () => {
    const kb = await aKnowledgeBase();
    const names = ["f1", "f2", "f3", "f4", "f5", "f6"];
    for (const name of names)
      expect((await createField(kb.dataset.id, { type: "string", name })).status).toBe(201);
    const listed = await send("GET", `/v1/datasets/${kb.dataset.id}/metadata`);
    const custom = (listed.body.doc_metadata as { name: string }[]).map((field) => field.name);
    expect(custom.filter((name) => names.includes(name))).toEqual(names);
    expect(custom.at(-1)).toBe("f6");
  });

  it("accepts a field whose name another dataset already uses", async () => {
    const kb = await aKnowledgeBase();
    const other = await aKnowledgeBase();
    const response = await createField(kb.dataset.id, { type: "number", name: "fresh" });
    expect(response.status).toBe(201);
    const again = await createField(other.dataset.id, { type: "number", name: "fresh" });
    expectAnswer(again, 201, { id: expect.any(String), type: "number", name: "fresh" });
    expect(again.body.id).not.toBe(response.body.id);
  });

  it.each([
    ["an unknown type", { type: "text", name: "fresh" }],
    ["a type in another case", { type: "String", name: "fresh" }],
    ["an empty type", { type: "", name: "fresh" }],
    ["no type", { name: "fresh" }],
    ["a null type", { type: null, name: "fresh" }],
    ["a type that is not a string", { type: 1, name: "fresh" }],
  ])("answers 400 invalid_param on type for %s, writing nothing", async (_case, body) => {
    const kb = await aKnowledgeBase();
    await expectNothingWritten(kb, async () => {
      expectAnswer(await createField(kb.dataset.id, body), 400, BAD_TYPE);
    });
  });

  it.each([
    ["no name", { type: "string" }],
    ["a null name", { type: "string", name: null }],
    ["a number as name", { type: "string", name: 42 }],
    ["an array as name", { type: "string", name: ["fresh"] }],
  ])("answers 400 invalid_param on name for %s, writing nothing", async (_case, body) => {
    const kb = await aKnowledgeBase();
    await expectNothingWritten(kb, async () => {
      expectAnswer(
        await createField(kb.dataset.id, body),
        400,
        invalidParam(expect.stringMatching(/^name: ./)),
      );
    });
  });

  it.each([
    ["empty", ""],
    ["a space", " "],
    ["tabs and newlines", "\t\n \r"],
    ["a no-break space", "\u00a0"],
    ["an ideographic space", "\u3000"],
    ["a byte order mark", "\ufeff"],
  ])("answers 400 for a blank name (%s), writing nothing", async (_case, name) => {
    const kb = await aKnowledgeBase();
    await expectNothingWritten(kb, async () => {
      expectAnswer(await createField(kb.dataset.id, { type: "string", name }), 400, BLANK);
    });
  });

  it("refuses a name with NUL or an unpaired surrogate, which no store holds as sent, creating nothing", async () => {
    const kb = await aKnowledgeBase();
    await expectNothingWritten(kb, async () => {
      for (const name of ["a\u0000b", "q\ud800", "\udc00q"])
        expectAnswer(await createField(kb.dataset.id, { type: "string", name }), 400, UNSTORABLE);
    });
  });

  it("counts the name's length in code points: 255 pass, 256 are refused", async () => {
    const kb = await aKnowledgeBase();
    for (const name of ["a".repeat(256), "😀".repeat(256), `${"é".repeat(255)}x`]) {
      await expectNothingWritten(kb, async () => {
        expectAnswer(await createField(kb.dataset.id, { type: "string", name }), 400, TOO_LONG);
      });
    }
    for (const name of ["a".repeat(255), "😀".repeat(255)]) {
      expectAnswer(await createField(kb.dataset.id, { type: "time", name }), 201, {
        id: expect.any(String),
        type: "time",
        name,
      });
    }
    expect(
      (await listFields(kb.dataset.id)).doc_metadata.slice(3).map((field: { name: string }) => field.name),
    ).toEqual(expect.arrayContaining(["a".repeat(255), "😀".repeat(255)]));
  });

  it.each(BUILT_IN_NAMES)("answers 400 for the built-in name %s, writing nothing", async (name) => {
    const kb = await aKnowledgeBase();
    await expectNothingWritten(kb, async () => {
      expectAnswer(await createField(kb.dataset.id, { type: "string", name }), 400, BUILT_IN_NAME);
    });
  });

  it("answers 400 Metadata name already exists. for a name the dataset holds, writing nothing", async () => {
    const kb = await aKnowledgeBase();
    await expectNothingWritten(kb, async () => {
      for (const type of ["string", "number", "time"]) {
        expectAnswer(await createField(kb.dataset.id, { type, name: "label" }), 400, TAKEN);
      }
    });
    const created = await createField(kb.dataset.id, { type: "string", name: "fresh" });
    expect(created.status).toBe(201);
    expectAnswer(await createField(kb.dataset.id, { type: "number", name: "fresh" }), 400, TAKEN);
  });

  it("stores names as sent: no trimming, case-sensitive, built-in names only exactly", async () => {
    const kb = await aKnowledgeBase();
    for (const name of ["Label", " label", "label ", "Source", "DOCUMENT_NAME", " uploader"]) {
      expectAnswer(await createField(kb.dataset.id, { type: "string", name }), 201, {
        id: expect.any(String),
        type: "string",
        name,
      });
    }
    const names = (await listFields(kb.dataset.id)).doc_metadata.map((field: { name: string }) => field.name);
    expect([...names].sort()).toEqual(
      ["label", "score", "when", "Label", " label", "label ", "Source", "DOCUMENT_NAME", " uploader"].sort(),
    );
  });

  it("checks blank, then length, then built-in, then duplicate", async () => {
    const kb = await aKnowledgeBase();
    // A custom field holding a built-in's name (as an import might store it): the built-in rule speaks first.
    await server.store.repositories.metadata.saveField(
      aMetadataField(kb.dataset.id, { name: "source", createdAt: 4 }),
    );
    await expectNothingWritten(kb, async () => {
      expectAnswer(await createField(kb.dataset.id, { type: "string", name: "source" }), 400, BUILT_IN_NAME);
      expectAnswer(await createField(kb.dataset.id, { type: "string", name: "   " }), 400, BLANK);
      expectAnswer(await createField(kb.dataset.id, { type: "string", name: " ".repeat(300) }), 400, BLANK);
    });
  });

  it("ignores unknown fields of the body", async () => {
    const kb = await aKnowledgeBase();
    const response = await createField(kb.dataset.id, {
      type: "number",
      name: "fresh",
      id: crypto.randomUUID(),
      count: 5,
    });
    expectAnswer(response, 201, { id: expect.any(String), type: "number", name: "fresh" });
    expect((await listFields(kb.dataset.id)).doc_metadata.at(-1)).toEqual({ ...response.body, count: 0 });
  });

  it("lets exactly one of concurrent creates of one name succeed", async () => {
    const kb = await aKnowledgeBase();
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => createField(kb.dataset.id, { type: "string", name: "race" })),
    );
    expect(responses.filter((response) => response.status === 201)).toHaveLength(1);
    for (const response of responses.filter((each) => each.status !== 201))
      expectAnswer(response, 400, TAKEN);
    const names = (await listFields(kb.dataset.id)).doc_metadata.map((field: { name: string }) => field.name);
    expect(names).toEqual(["label", "score", "when", "race"]);
  });
});

// ---------------------------------------------------------------------------------------------
// 3.2 Rename

describe("PATCH /v1/datasets/{dataset_id}/metadata/{metadata_id}", () => {
  it("renames the field: 200 with the field; its position, count and every value stay", async () => {
    const kb = await aKnowledgeBase();
    const response = await renameField(kb.dataset.id, kb.fields.label.id, { name: "status" });
    expectAnswer(response, 200, { id: kb.fields.label.id, type: "string", name: "status" });
    const renamed = { ...kb.fields.label, name: "status" };
    expect(await listFields(kb.dataset.id)).toEqual({
      doc_metadata: [usage(renamed, 2), usage(kb.fields.score, 1), usage(kb.fields.when, 0)],
      built_in_field_enabled: false,
    });
    expect(await docMetadata(kb.dataset.id, kb.first.id)).toEqual([
      entry(renamed, "draft"),
      entry(kb.fields.score, "7"),
    ]);
    expect(await docMetadata(kb.dataset.id, kb.second.id)).toEqual([entry(renamed, "final")]);
  });

  it("reaches documents in every state: disabled, archived, still indexing", async () => {
    const kb = await aKnowledgeBase();
    const { documents, metadata } = server.store.repositories;
    const others = [
      aDocument(kb.dataset.id, { enabled: false, position: 3 }),
      aDocument(kb.dataset.id, { archived: true, archivedAt: 1_700_000_200, position: 4 }),
      aDocument(kb.dataset.id, { indexingStatus: "indexing", completedAt: null, position: 5 }),
    ];
    for (const document of others) {
      await documents.save(document);
      await metadata.setValue(document.id, kb.fields.score.id, "3");
    }
    expect((await renameField(kb.dataset.id, kb.fields.score.id, { name: "rank" })).status).toBe(200);
    for (const document of others) {
      expect(await docMetadata(kb.dataset.id, document.id)).toEqual([
        entry({ ...kb.fields.score, name: "rank" }, "3"),
      ]);
    }
    expect((await listFields(kb.dataset.id)).doc_metadata[1]).toEqual(
      usage({ ...kb.fields.score, name: "rank" }, 4),
    );
  });

  it("accepts the field's own name and changes nothing", async () => {
    const kb = await aKnowledgeBase();
    await expectNothingWritten(kb, async () => {
      expectAnswer(await renameField(kb.dataset.id, kb.fields.score.id, { name: "score" }), 200, {
        id: kb.fields.score.id,
        type: "number",
        name: "score",
      });
    });
  });

  it("answers 400 Metadata name already exists. for another field's name, writing nothing", async () => {
    const kb = await aKnowledgeBase();
    await expectNothingWritten(kb, async () => {
      expectAnswer(await renameField(kb.dataset.id, kb.fields.label.id, { name: "score" }), 400, TAKEN);
      expectAnswer(await renameField(kb.dataset.id, kb.fields.when.id, { name: "label" }), 400, TAKEN);
    });
  });

  it("renames case-sensitively and without trimming", async () => {
    const kb = await aKnowledgeBase();
    expectAnswer(await renameField(kb.dataset.id, kb.fields.label.id, { name: "Score" }), 200, {
      id: kb.fields.label.id,
      type: "string",
      name: "Score",
    });
    expectAnswer(await renameField(kb.dataset.id, kb.fields.when.id, { name: " score " }), 200, {
      id: kb.fields.when.id,
      type: "time",
      name: " score ",
    });
  });

  it("frees the old name for another field", async () => {
    const kb = await aKnowledgeBase();
    expect((await renameField(kb.dataset.id, kb.fields.label.id, { name: "status" })).status).toBe(200);
    expect((await renameField(kb.dataset.id, kb.fields.when.id, { name: "label" })).status).toBe(200);
    expect((await createField(kb.dataset.id, { type: "string", name: "when" })).status).toBe(201);
  });

  it("answers 404 Metadata not found. for a field it does not hold, even under a taken name", async () => {
    const kb = await aKnowledgeBase();
    const other = await aKnowledgeBase();
    await expectNothingWritten(other, async () => {
      await expectNothingWritten(kb, async () => {
        for (const fieldId of [
          crypto.randomUUID(),
          "not-a-uuid",
          other.fields.label.id,
          world.fields.author.id,
        ]) {
          for (const name of ["fresh", "score", "label"]) {
            expectAnswer(await renameField(kb.dataset.id, fieldId, { name }), 404, METADATA_NOT_FOUND);
          }
        }
      });
    });
  });

  it("checks the name before the field: blank, long or built-in names are 400 even for a missing field", async () => {
    const kb = await aKnowledgeBase();
    await expectNothingWritten(kb, async () => {
      for (const fieldId of [kb.fields.label.id, crypto.randomUUID()]) {
        expectAnswer(await renameField(kb.dataset.id, fieldId, { name: "" }), 400, BLANK);
        expectAnswer(await renameField(kb.dataset.id, fieldId, { name: " \t" }), 400, BLANK);
        expectAnswer(await renameField(kb.dataset.id, fieldId, { name: "x".repeat(256) }), 400, TOO_LONG);
        expectAnswer(await renameField(kb.dataset.id, fieldId, { name: "😀".repeat(256) }), 400, TOO_LONG);
        expectAnswer(await renameField(kb.dataset.id, fieldId, { name: "a\u0000b" }), 400, UNSTORABLE);
        expectAnswer(await renameField(kb.dataset.id, fieldId, { name: "q\ud800" }), 400, UNSTORABLE);
        for (const name of BUILT_IN_NAMES) {
          expectAnswer(await renameField(kb.dataset.id, fieldId, { name }), 400, BUILT_IN_NAME);
        }
      }
    });
    expectAnswer(await renameField(kb.dataset.id, kb.fields.label.id, { name: "😀".repeat(255) }), 200, {
      id: kb.fields.label.id,
      type: "string",
      name: "😀".repeat(255),
    });
  });

  it("answers 400 invalid_param on name for a missing or ill-typed name, before the field lookup", async () => {
    const kb = await aKnowledgeBase();
    await expectNothingWritten(kb, async () => {
      for (const fieldId of [kb.fields.label.id, crypto.randomUUID()]) {
        for (const body of [{}, { name: null }, { name: 5 }, { title: "x" }]) {
          expectAnswer(
            await renameField(kb.dataset.id, fieldId, body),
            400,
            invalidParam(expect.stringMatching(/^name: ./)),
          );
        }
      }
    });
  });

  it("reads the body before looking up the field: 415 and bad JSON win over a missing field", async () => {
    const kb = await aKnowledgeBase();
    const path = `/v1/datasets/${kb.dataset.id}/metadata/${crypto.randomUUID()}`;
    expectAnswer(
      await send("PATCH", path, { rawBody: '{"name":"x"}', headers: { "content-type": "text/plain" } }),
      415,
      UNSUPPORTED_MEDIA_TYPE,
    );
    expectAnswer(
      await send("PATCH", path, { rawBody: "{", headers: { "content-type": "application/json" } }),
      400,
      BAD_JSON,
    );
  });

  it("lets exactly one of concurrent renames to one free name succeed", async () => {
    const kb = await aKnowledgeBase();
    const responses = await Promise.all(
      Object.values(kb.fields).map((field) => renameField(kb.dataset.id, field.id, { name: "race" })),
    );
    expect(responses.filter((response) => response.status === 200)).toHaveLength(1);
    for (const response of responses.filter((each) => each.status !== 200))
      expectAnswer(response, 400, TAKEN);
    const names = (await listFields(kb.dataset.id)).doc_metadata.map((field: { name: string }) => field.name);
    expect(names.filter((name: string) => name === "race")).toHaveLength(1);
  });
});

// ---------------------------------------------------------------------------------------------
// 3.3 Delete

describe("DELETE /v1/datasets/{dataset_id}/metadata/{metadata_id}", () => {
  it("deletes the field and its value on every document: 204, empty; lists and documents follow at once", async () => {
    const kb = await aKnowledgeBase();
    expectNoContent(await deleteField(kb.dataset.id, kb.fields.label.id));
    expect(await listFields(kb.dataset.id)).toEqual({
      doc_metadata: [usage(kb.fields.score, 1), usage(kb.fields.when, 0)],
      built_in_field_enabled: false,
    });
    expect(await docMetadata(kb.dataset.id, kb.first.id)).toEqual([entry(kb.fields.score, "7")]);
    expect(await docMetadata(kb.dataset.id, kb.second.id)).toEqual([]);
    const { metadata } = server.store.repositories;
    expect(await metadata.findField(kb.dataset.id, kb.fields.label.id)).toBeUndefined();
    expect(await metadata.valuesOf(kb.second.id)).toEqual([]);
  });

  it("leaves no value behind: a new field of the same name starts at count 0", async () => {
    const kb = await aKnowledgeBase();
    expectNoContent(await deleteField(kb.dataset.id, kb.fields.label.id));
    const created = await createField(kb.dataset.id, { type: "string", name: "label" });
    expect(created.status).toBe(201);
    expect((await listFields(kb.dataset.id)).doc_metadata).toEqual([
      usage(kb.fields.score, 1),
      usage(kb.fields.when, 0),
      { ...created.body, count: 0 },
    ]);
    expect(await docMetadata(kb.dataset.id, kb.second.id)).toEqual([]);
  });

  it("answers 404 Metadata not found. for another dataset's field or an unknown id, writing nothing", async () => {
    const kb = await aKnowledgeBase();
    const other = await aKnowledgeBase();
    await expectNothingWritten(other, async () => {
      await expectNothingWritten(kb, async () => {
        for (const fieldId of [
          other.fields.label.id,
          world.fields.author.id,
          crypto.randomUUID(),
          "not-a-uuid",
        ]) {
          expectAnswer(await deleteField(kb.dataset.id, fieldId), 404, METADATA_NOT_FOUND);
        }
      });
    });
  });

  it("answers 404 for a field already deleted", async () => {
    const kb = await aKnowledgeBase();
    expectNoContent(await deleteField(kb.dataset.id, kb.fields.when.id));
    expectAnswer(await deleteField(kb.dataset.id, kb.fields.when.id), 404, METADATA_NOT_FOUND);
    expectAnswer(await renameField(kb.dataset.id, kb.fields.when.id, { name: "x" }), 404, METADATA_NOT_FOUND);
  });
});

// ---------------------------------------------------------------------------------------------
// Literal segments are never ids

describe("the literal segments built-in and documents/metadata", () => {
  const allowOf = (response: ApiResponse) =>
    (response.headers.get("allow") ?? "")
      .split(",")
      .map((method) => method.trim())
      .sort();

  it("answers 405 with Allow to a method their routes do not serve", async () => {
    const kb = await aKnowledgeBase();
    const base = `/v1/datasets/${kb.dataset.id}`;
    const cases = [
      ["PATCH", `${base}/metadata/built-in`, { name: "x" }, ["GET", "HEAD", "OPTIONS"]],
      ["DELETE", `${base}/metadata/built-in`, undefined, ["GET", "HEAD", "OPTIONS"]],
      ["GET", `${base}/documents/metadata`, undefined, ["POST", "OPTIONS"]],
    ] as const;
    await expectNothingWritten(kb, async () => {
      for (const [method, path, body, allowed] of cases) {
        const response = await send(method, path, body === undefined ? {} : { body });
        expectAnswer(response, 405, {
          status: 405,
          code: "method_not_allowed",
          message: "The method is not allowed for the requested URL.",
        });
        expect(allowOf(response)).toEqual([...allowed].sort());
      }
    });
  });
});

// ---------------------------------------------------------------------------------------------
// 3.4 Built-in fields

describe("GET /v1/datasets/{dataset_id}/metadata/built-in", () => {
  it("answers the five built-in fields with their types, whether they are shown or not", async () => {
    const shown = await aKnowledgeBase({ builtInFieldEnabled: true });
    const hidden = await aKnowledgeBase();
    for (const kb of [shown, hidden]) {
      expectAnswer(await builtInFields(kb.dataset.id), 200, { fields: BUILT_IN_FIELDS });
    }
  });
});

// ---------------------------------------------------------------------------------------------
// 3.5 Show or hide the built-in fields

describe("POST /v1/datasets/{dataset_id}/metadata/built-in/{action}", () => {
  const builtInEntries = (document: Document) => [
    { id: "built-in", name: "document_name", type: "string", value: document.name },
    { id: "built-in", name: "uploader", type: "string", value: "Ada Lovelace" },
    { id: "built-in", name: "upload_date", type: "time", value: String(document.createdAt) },
    { id: "built-in", name: "last_update_date", type: "time", value: String(document.updatedAt) },
    { id: "built-in", name: "source", type: "string", value: "file_upload" },
  ];
  const builtInUsage = (count: number) =>
    BUILT_IN_FIELDS.map((field) => ({ id: "built-in", ...field, count }));

  it("enable: 200 success; the built-ins join the field list, every document and the dataset at once", async () => {
    const kb = await aKnowledgeBase();
    expectAnswer(await toggleBuiltIn(kb.dataset.id, "enable"), 200, SUCCESS);
    expect(await listFields(kb.dataset.id)).toEqual({
      doc_metadata: [
        usage(kb.fields.label, 2),
        usage(kb.fields.score, 1),
        usage(kb.fields.when, 0),
        ...builtInUsage(2),
      ],
      built_in_field_enabled: true,
    });
    expect(await docMetadata(kb.dataset.id, kb.first.id)).toEqual([
      entry(kb.fields.label, "draft"),
      entry(kb.fields.score, "7"),
      ...builtInEntries(kb.first),
    ]);
    expect(await docMetadata(kb.dataset.id, kb.second.id)).toEqual([
      entry(kb.fields.label, "final"),
      ...builtInEntries(kb.second),
    ]);
    const dataset = await send("GET", `/v1/datasets/${kb.dataset.id}`);
    expect(dataset.status).toBe(200);
    expect(dataset.body).toMatchObject({
      built_in_field_enabled: true,
      doc_metadata: [
        { id: kb.fields.label.id, name: "label", type: "string" },
        { id: kb.fields.score.id, name: "score", type: "number" },
        { id: kb.fields.when.id, name: "when", type: "time" },
        ...BUILT_IN_FIELDS.map((field) => ({ id: "built-in", ...field })),
      ],
    });
    const after = await stored(kb);
    expect(after.builtInFieldEnabled).toBe(true);
    expect(after.updatedAt).toBeGreaterThan(kb.dataset.updatedAt);
  });

  it("disable: 200 success; the built-ins leave the field list, every document and the dataset at once", async () => {
    const kb = await aKnowledgeBase({ builtInFieldEnabled: true });
    expectAnswer(await toggleBuiltIn(kb.dataset.id, "disable"), 200, SUCCESS);
    expect(await listFields(kb.dataset.id)).toEqual({
      doc_metadata: [usage(kb.fields.label, 2), usage(kb.fields.score, 1), usage(kb.fields.when, 0)],
      built_in_field_enabled: false,
    });
    expect(await docMetadata(kb.dataset.id, kb.first.id)).toEqual([
      entry(kb.fields.label, "draft"),
      entry(kb.fields.score, "7"),
    ]);
    expect(await docMetadata(kb.dataset.id, kb.second.id)).toEqual([entry(kb.fields.label, "final")]);
    const dataset = await send("GET", `/v1/datasets/${kb.dataset.id}`);
    expect(dataset.body).toMatchObject({
      built_in_field_enabled: false,
      doc_metadata: [
        { id: kb.fields.label.id, name: "label", type: "string" },
        { id: kb.fields.score.id, name: "score", type: "number" },
        { id: kb.fields.when.id, name: "when", type: "time" },
      ],
    });
    const after = await stored(kb);
    expect(after.builtInFieldEnabled).toBe(false);
    expect(after.updatedAt).toBeGreaterThan(kb.dataset.updatedAt);
  });

  it("answers success to a repeated action and leaves updated_at alone when nothing changes", async () => {
    const kb = await aKnowledgeBase({ builtInFieldEnabled: true, updatedAt: 1_700_000_500 });
    await expectNothingWritten(kb, async () => {
      expectAnswer(await toggleBuiltIn(kb.dataset.id, "enable"), 200, SUCCESS);
    });
    const hidden = await aKnowledgeBase({ updatedAt: 1_700_000_500 });
    await expectNothingWritten(hidden, async () => {
      expectAnswer(await toggleBuiltIn(hidden.dataset.id, "disable"), 200, SUCCESS);
    });
  });

  it("shows the built-ins on documents created after enabling, counting every document", async () => {
    const kb = await aKnowledgeBase();
    expectAnswer(await toggleBuiltIn(kb.dataset.id, "enable"), 200, SUCCESS);
    const late = aDocument(kb.dataset.id, { name: "late.pdf", position: 3, createdBy: world.member.id });
    await server.store.repositories.documents.save(late);
    expect(await docMetadata(kb.dataset.id, late.id)).toEqual(builtInEntries(late));
    expect((await listFields(kb.dataset.id)).doc_metadata.slice(3)).toEqual(builtInUsage(3));
  });

  it.each(["Enable", "DISABLE", "enabled", "on", "toggle", "true", "enable%20", "%20enable"])(
    "answers 400 action: must be enable or disable. for %s, writing nothing",
    async (action) => {
      const kb = await aKnowledgeBase();
      await expectNothingWritten(kb, async () => {
        expectAnswer(await toggleBuiltIn(kb.dataset.id, action), 400, BAD_ACTION);
      });
    },
  );

  it("checks the dataset before the action: Enable is 404 on a missing dataset, 403 on a closed one", async () => {
    expectAnswer(await toggleBuiltIn(crypto.randomUUID(), "Enable"), 404, DATASET_NOT_FOUND);
    expectAnswer(await toggleBuiltIn(elsewhere.dataset.id, "Enable"), 404, DATASET_NOT_FOUND);
    const closed = await aKnowledgeBase({ enableApi: false });
    expectAnswer(await toggleBuiltIn(closed.dataset.id, "Enable"), 403, API_DISABLED);
    const open = await aKnowledgeBase();
    expectAnswer(await toggleBuiltIn(open.dataset.id, "Enable"), 400, BAD_ACTION);
  });

  it("checks the key before the action", async () => {
    const kb = await aKnowledgeBase();
    expectAnswer(await toggleBuiltIn(kb.dataset.id, "Enable", { token: undefined }), 401, NO_KEY);
    expectAnswer(
      await toggleBuiltIn(kb.dataset.id, "Enable", { token: world.apps.chat.key }),
      401,
      INVALID_KEY,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// 3.6 Set values

describe("POST /v1/datasets/{dataset_id}/documents/metadata", () => {
  const set = (kb: KnowledgeBase, operations: unknown[]) =>
    setValues(kb.dataset.id, { operation_data: operations });

  it("checks the dataset before the body's fields: a body it would refuse is 404 on an unknown dataset, 403 on a closed one", async () => {
    const refused = { operation_data: "not a list" };
    expectAnswer(await setValues(crypto.randomUUID(), refused), 404, DATASET_NOT_FOUND);
    const closed = await aKnowledgeBase({ enableApi: false });
    expectAnswer(await setValues(closed.dataset.id, refused), 403, API_DISABLED);
    expect((await setValues((await aKnowledgeBase()).dataset.id, refused)).status).toBe(400);
  });

  it("sets values: 200 success; counts and every document show them at once; updated_at stays", async () => {
    const kb = await aKnowledgeBase();
    const response = await set(kb, [
      operation(
        kb.second.id,
        [
          { id: kb.fields.score.id, value: 12 },
          { id: kb.fields.when.id, value: 1_700_000_000 },
        ],
        true,
      ),
    ]);
    expectAnswer(response, 200, SUCCESS);
    expect((await listFields(kb.dataset.id)).doc_metadata).toEqual([
      usage(kb.fields.label, 2),
      usage(kb.fields.score, 2),
      usage(kb.fields.when, 1),
    ]);
    expect(await docMetadata(kb.dataset.id, kb.second.id)).toEqual([
      entry(kb.fields.label, "final"),
      entry(kb.fields.score, "12"),
      entry(kb.fields.when, "1700000000"),
    ]);
    expect(await docMetadata(kb.dataset.id, kb.first.id)).toEqual([
      entry(kb.fields.label, "draft"),
      entry(kb.fields.score, "7"),
    ]);
    const document = await send("GET", `/v1/datasets/${kb.dataset.id}/documents/${kb.second.id}`);
    expect(document.body.updated_at).toBe(kb.second.updatedAt);
  });

  it("partial_update false: the document's custom values become exactly the non-null items", async () => {
    const kb = await aKnowledgeBase();
    const response = await set(kb, [
      operation(
        kb.first.id,
        [
          { id: kb.fields.label.id, value: null },
          { id: kb.fields.when.id, value: "86400" },
        ],
        false,
      ),
    ]);
    expectAnswer(response, 200, SUCCESS);
    expect(await docMetadata(kb.dataset.id, kb.first.id)).toEqual([entry(kb.fields.when, "86400")]);
    expect(await docMetadata(kb.dataset.id, kb.second.id)).toEqual([entry(kb.fields.label, "final")]);
    expect((await listFields(kb.dataset.id)).doc_metadata).toEqual([
      usage(kb.fields.label, 1),
      usage(kb.fields.score, 0),
      usage(kb.fields.when, 1),
    ]);
  });

  it("partial_update defaults to false; an empty list then clears every custom value", async () => {
    const kb = await aKnowledgeBase();
    expectAnswer(
      await set(kb, [operation(kb.first.id, [{ id: kb.fields.score.id, value: "1" }])]),
      200,
      SUCCESS,
    );
    expect(await docMetadata(kb.dataset.id, kb.first.id)).toEqual([entry(kb.fields.score, "1")]);
    expectAnswer(await set(kb, [operation(kb.second.id, [])]), 200, SUCCESS);
    expect(await docMetadata(kb.dataset.id, kb.second.id)).toEqual([]);
    expect((await listFields(kb.dataset.id)).doc_metadata).toEqual([
      usage(kb.fields.label, 0),
      usage(kb.fields.score, 1),
      usage(kb.fields.when, 0),
    ]);
  });

  it("partial_update true: each item sets or clears its field, the others stay", async () => {
    const kb = await aKnowledgeBase();
    const response = await set(kb, [
      operation(
        kb.first.id,
        [
          { id: kb.fields.label.id, value: null },
          { id: kb.fields.when.id, value: 5 },
        ],
        true,
      ),
      operation(kb.second.id, [{ id: kb.fields.label.id }], true),
    ]);
    expectAnswer(response, 200, SUCCESS);
    expect(await docMetadata(kb.dataset.id, kb.first.id)).toEqual([
      entry(kb.fields.score, "7"),
      entry(kb.fields.when, "5"),
    ]);
    expect(await docMetadata(kb.dataset.id, kb.second.id)).toEqual([]);
    expect((await listFields(kb.dataset.id)).doc_metadata).toEqual([
      usage(kb.fields.label, 0),
      usage(kb.fields.score, 1),
      usage(kb.fields.when, 1),
    ]);
  });

  it("clearing a value the document does not hold changes nothing", async () => {
    const kb = await aKnowledgeBase();
    await expectNothingWritten(kb, async () => {
      expectAnswer(
        await set(kb, [operation(kb.second.id, [{ id: kb.fields.when.id, value: null }], true)]),
        200,
        SUCCESS,
      );
    });
  });

  it("answers success to an empty operation_data and changes nothing", async () => {
    const kb = await aKnowledgeBase();
    await expectNothingWritten(kb, async () => {
      expectAnswer(await set(kb, []), 200, SUCCESS);
    });
  });

  it("ignores each item's name: the stored field counts", async () => {
    const kb = await aKnowledgeBase();
    const response = await set(kb, [
      operation(
        kb.second.id,
        [
          { id: kb.fields.label.id, name: "score", value: "renamed?" },
          { id: kb.fields.score.id, name: 42, value: "8" },
          { id: kb.fields.when.id, name: "document_name", value: "60" },
        ],
        true,
      ),
    ]);
    expectAnswer(response, 200, SUCCESS);
    expect(await docMetadata(kb.dataset.id, kb.second.id)).toEqual([
      entry(kb.fields.label, "renamed?"),
      entry(kb.fields.score, "8"),
      entry(kb.fields.when, "60"),
    ]);
    expect(
      (await listFields(kb.dataset.id)).doc_metadata.map((field: { name: string }) => field.name),
    ).toEqual(["label", "score", "when"]);
  });

  it("takes the last value of a field given twice in one list", async () => {
    const kb = await aKnowledgeBase();
    expectAnswer(
      await set(kb, [
        operation(
          kb.first.id,
          [
            { id: kb.fields.label.id, value: "a" },
            { id: kb.fields.label.id, value: "b" },
          ],
          true,
        ),
        operation(
          kb.second.id,
          [
            { id: kb.fields.label.id, value: "c" },
            { id: kb.fields.label.id, value: null },
            { id: kb.fields.score.id, value: null },
            { id: kb.fields.score.id, value: 3 },
          ],
          false,
        ),
      ]),
      200,
      SUCCESS,
    );
    expect(await docMetadata(kb.dataset.id, kb.first.id)).toEqual([
      entry(kb.fields.label, "b"),
      entry(kb.fields.score, "7"),
    ]);
    expect(await docMetadata(kb.dataset.id, kb.second.id)).toEqual([entry(kb.fields.score, "3")]);
  });

  it("applies the operations of a document given twice in turn", async () => {
    const kb = await aKnowledgeBase();
    expectAnswer(
      await set(kb, [
        operation(kb.first.id, [{ id: kb.fields.when.id, value: 10 }], false),
        operation(kb.first.id, [{ id: kb.fields.score.id, value: 1 }], true),
        operation(kb.second.id, [{ id: kb.fields.score.id, value: 2 }], true),
        operation(kb.second.id, [{ id: kb.fields.when.id, value: 20 }], false),
      ]),
      200,
      SUCCESS,
    );
    expect(await docMetadata(kb.dataset.id, kb.first.id)).toEqual([
      entry(kb.fields.score, "1"),
      entry(kb.fields.when, "10"),
    ]);
    expect(await docMetadata(kb.dataset.id, kb.second.id)).toEqual([entry(kb.fields.when, "20")]);
    expect((await listFields(kb.dataset.id)).doc_metadata).toEqual([
      usage(kb.fields.label, 0),
      usage(kb.fields.score, 1),
      usage(kb.fields.when, 2),
    ]);
  });

  it("finds documents and fields by ids in any case", async () => {
    const kb = await aKnowledgeBase();
    expectAnswer(
      await set(kb, [
        operation(kb.second.id.toUpperCase(), [{ id: kb.fields.score.id.toUpperCase(), value: "9" }], true),
      ]),
      200,
      SUCCESS,
    );
    expect(await docMetadata(kb.dataset.id, kb.second.id)).toEqual([
      entry(kb.fields.label, "final"),
      entry(kb.fields.score, "9"),
    ]);
  });

  describe("values by type", () => {
    const accepted: [string, "label" | "score" | "when", string, string][] = [
      ["string", "label", '"text"', "text"],
      ["string", "label", '""', ""],
      ["string", "label", '"  spaced  "', "  spaced  "],
      ["string", "label", '"42"', "42"],
      ["number", "score", '"042"', "42"],
      ["number", "score", "1.50", "1.5"],
      ["number", "score", '"-1.5e3"', "-1500"],
      ["number", "score", "7", "7"],
      ["number", "score", "-0.25", "-0.25"],
      ["number", "score", '"0.10"', "0.1"],
      ["number", "score", '"1E3"', "1000"],
      ["number", "score", "1e21", "1e+21"],
      ["number", "score", "1E2", "100"],
      ["time", "when", "1700000000", "1700000000"],
      ["time", "when", '"1700000000"', "1700000000"],
      ["time", "when", '"-86400"', "-86400"],
      ["time", "when", "-86400", "-86400"],
      ["time", "when", "0", "0"],
      ["time", "when", '"0042"', "42"],
      ["time", "when", "9007199254740991", "9007199254740991"],
    ];

    it.each(accepted)("stores a %s field's value %s as %j", async (_type, field, json, shown) => {
      const kb = await aKnowledgeBase();
      const fieldId = kb.fields[field].id;
      const response = await setValues(kb.dataset.id, undefined, {
        rawBody: `{"operation_data":[{"document_id":"${kb.second.id}","metadata_list":[{"id":"${fieldId}","value":${json}}],"partial_update":true}]}`,
        headers: { "content-type": "application/json" },
      });
      expectAnswer(response, 200, SUCCESS);
      const values = await docMetadata(kb.dataset.id, kb.second.id);
      expect(values.find((value: { id: string }) => value.id === fieldId)).toEqual(
        entry(kb.fields[field], shown),
      );
      expect(await server.store.repositories.metadata.valuesOf(kb.second.id)).toContainEqual(
        entry(kb.fields[field], shown),
      );
    });

    const refused: [string, "label" | "score" | "when", string, string][] = [
      ["string", "label", "42", "must be a string."],
      ["string", "label", "0", "must be a string."],
      ["string", "label", "-1.5", "must be a string."],
      ["string", "label", '"a\\u0000b"', "must not contain NUL characters or unpaired surrogates."],
      ["string", "label", '"q\\ud800"', "must not contain NUL characters or unpaired surrogates."],
      ["number", "score", '""', "must be a finite number or numeric string."],
      ["number", "score", '" 1"', "must be a finite number or numeric string."],
      ["number", "score", '"1 "', "must be a finite number or numeric string."],
      ["number", "score", '"0x10"', "must be a finite number or numeric string."],
      ["number", "score", '"NaN"', "must be a finite number or numeric string."],
      ["number", "score", '"Infinity"', "must be a finite number or numeric string."],
      ["number", "score", '"-Infinity"', "must be a finite number or numeric string."],
      ["number", "score", '"1e999"', "must be a finite number or numeric string."],
      ["number", "score", "1e400", "must be a finite number or numeric string."],
      ["number", "score", "-1e400", "must be a finite number or numeric string."],
      ["string", "label", "1e400", "must be a string."],
      ["time", "when", "1e400", "must be a Unix timestamp in whole seconds."],
      ["number", "score", '"abc"', "must be a finite number or numeric string."],
      ["number", "score", '"1,5"', "must be a finite number or numeric string."],
      ["number", "score", '"١٢"', "must be a finite number or numeric string."],
      ["time", "when", "1.5", "must be a Unix timestamp in whole seconds."],
      ["time", "when", '"1.5"', "must be a Unix timestamp in whole seconds."],
      ["time", "when", '"1e3"', "must be a Unix timestamp in whole seconds."],
      ["time", "when", '"+5"', "must be a Unix timestamp in whole seconds."],
      ["time", "when", '" 5"', "must be a Unix timestamp in whole seconds."],
      ["time", "when", '""', "must be a Unix timestamp in whole seconds."],
      ["time", "when", '"soon"', "must be a Unix timestamp in whole seconds."],
      ["time", "when", '"١٧٠٠"', "must be a Unix timestamp in whole seconds."],
      ["time", "when", '"2024-01-01"', "must be a Unix timestamp in whole seconds."],
      ["time", "when", "9007199254740992", "must be a Unix timestamp in whole seconds."],
      ["time", "when", '"9007199254740992"', "must be a Unix timestamp in whole seconds."],
    ];

    it.each(refused)(
      "refuses a %s field's value %s, naming the item's path, writing nothing",
      async (_type, field, json, reason) => {
        const kb = await aKnowledgeBase();
        const fieldId = kb.fields[field].id;
        const valid = `{"id":"${kb.fields.label.id}","value":"changed"}`;
        await expectNothingWritten(kb, async () => {
          const response = await setValues(kb.dataset.id, undefined, {
            rawBody: `{"operation_data":[{"document_id":"${kb.first.id}","metadata_list":[${valid}],"partial_update":false},{"document_id":"${kb.second.id}","metadata_list":[${valid},${valid},{"id":"${fieldId}","value":${json}}],"partial_update":true}]}`,
            headers: { "content-type": "application/json" },
          });
          expectAnswer(response, 400, invalidParam(`operation_data.1.metadata_list.2.value: ${reason}`));
        });
      },
    );

    it.each(["label", "score", "when"] as const)("clears a %s value with null", async (field) => {
      const kb = await aKnowledgeBase();
      await server.store.repositories.metadata.setValue(kb.first.id, kb.fields.when.id, "100");
      expectAnswer(
        await set(kb, [operation(kb.first.id, [{ id: kb.fields[field].id, value: null }], true)]),
        200,
        SUCCESS,
      );
      const left = (await docMetadata(kb.dataset.id, kb.first.id)).map(
        (value: { name: string }) => value.name,
      );
      expect(left).toEqual(["label", "score", "when"].filter((name) => name !== field));
    });
  });

  it("answers 404 Document not found. for a document not in this dataset, writing nothing", async () => {
    const kb = await aKnowledgeBase();
    const other = await aKnowledgeBase();
    await expectNothingWritten(other, async () => {
      await expectNothingWritten(kb, async () => {
        for (const documentId of [other.first.id, world.document.id, crypto.randomUUID(), "not-a-uuid"]) {
          expectAnswer(
            await set(kb, [
              operation(kb.first.id, [{ id: kb.fields.label.id, value: "changed" }], false),
              operation(documentId, [{ id: kb.fields.label.id, value: "changed" }], true),
            ]),
            404,
            DOCUMENT_NOT_FOUND,
          );
        }
      });
    });
  });

  it("answers 404 Metadata not found. for a field not of this dataset or a built-in, writing nothing", async () => {
    const kb = await aKnowledgeBase({ builtInFieldEnabled: true });
    const other = await aKnowledgeBase();
    await expectNothingWritten(kb, async () => {
      for (const fieldId of [
        "built-in",
        "BUILT-IN",
        other.fields.label.id,
        crypto.randomUUID(),
        "document_name",
      ]) {
        expectAnswer(
          await set(kb, [
            operation(kb.first.id, [{ id: kb.fields.label.id, value: "changed" }], false),
            operation(
              kb.second.id,
              [
                { id: kb.fields.score.id, value: 1 },
                { id: fieldId, name: "document_name", value: "x" },
              ],
              true,
            ),
          ]),
          404,
          METADATA_NOT_FOUND,
        );
      }
    });
  });

  it("answers 404 Metadata not found. before it looks at a value past a double's range", async () => {
    const kb = await aKnowledgeBase();
    await expectNothingWritten(kb, async () => {
      const response = await setValues(kb.dataset.id, undefined, {
        rawBody: `{"operation_data":[{"document_id":"${kb.first.id}","metadata_list":[{"id":"${crypto.randomUUID()}","value":1e400}]}]}`,
        headers: { "content-type": "application/json" },
      });
      expectAnswer(response, 404, METADATA_NOT_FOUND);
    });
  });

  it("answers 404 Metadata not found. for a field deleted a moment ago", async () => {
    const kb = await aKnowledgeBase();
    expectNoContent(await deleteField(kb.dataset.id, kb.fields.when.id));
    await expectNothingWritten(kb, async () => {
      expectAnswer(
        await set(kb, [operation(kb.first.id, [{ id: kb.fields.when.id, value: 1 }], true)]),
        404,
        METADATA_NOT_FOUND,
      );
    });
  });

  it("walks in order: a document's own check comes before its items", async () => {
    const kb = await aKnowledgeBase();
    await expectNothingWritten(kb, async () => {
      expectAnswer(
        await set(kb, [
          operation(crypto.randomUUID(), [
            { id: "built-in", value: 1 },
            { id: kb.fields.label.id, value: 1 },
          ]),
        ]),
        404,
        DOCUMENT_NOT_FOUND,
      );
    });
  });

  it("walks in order: an earlier operation's failure wins over a later one's", async () => {
    const kb = await aKnowledgeBase();
    await expectNothingWritten(kb, async () => {
      expectAnswer(
        await set(kb, [
          operation(kb.first.id, [{ id: kb.fields.score.id, value: "many" }], true),
          operation(crypto.randomUUID(), [], true),
        ]),
        400,
        invalidParam("operation_data.0.metadata_list.0.value: must be a finite number or numeric string."),
      );
      expectAnswer(
        await set(kb, [
          operation(kb.first.id, [{ id: crypto.randomUUID(), value: "x" }], true),
          operation(crypto.randomUUID(), [], true),
        ]),
        404,
        METADATA_NOT_FOUND,
      );
      expectAnswer(
        await set(kb, [
          operation(crypto.randomUUID(), [], true),
          operation(kb.first.id, [{ id: kb.fields.score.id, value: "many" }], true),
        ]),
        404,
        DOCUMENT_NOT_FOUND,
      );
    });
  });

  it("walks items in order: an earlier item's failure wins over a later one's", async () => {
    const kb = await aKnowledgeBase();
    await expectNothingWritten(kb, async () => {
      expectAnswer(
        await set(kb, [
          operation(
            kb.first.id,
            [
              { id: kb.fields.label.id, value: "fine" },
              { id: kb.fields.when.id, value: "later" },
              { id: crypto.randomUUID(), value: "x" },
            ],
            true,
          ),
        ]),
        400,
        invalidParam("operation_data.0.metadata_list.1.value: must be a Unix timestamp in whole seconds."),
      );
      expectAnswer(
        await set(kb, [
          operation(
            kb.first.id,
            [
              { id: kb.fields.label.id, value: "fine" },
              { id: crypto.randomUUID(), value: "x" },
              { id: kb.fields.when.id, value: "later" },
            ],
            true,
          ),
        ]),
        404,
        METADATA_NOT_FOUND,
      );
    });
  });

  it.each([
    ["no operation_data", {}, /^operation_data: ./],
    ["operation_data not an array", { operation_data: { document_id: "x" } }, /^operation_data: ./],
    ["no document_id", { operation_data: [{ metadata_list: [] }] }, /^operation_data\.0\.document_id: ./],
    [
      "a document_id not a string",
      { operation_data: [{ document_id: 5, metadata_list: [] }] },
      /^operation_data\.0\.document_id: ./,
    ],
    [
      "no metadata_list",
      { operation_data: [{ document_id: "DOC" }] },
      /^operation_data\.0\.metadata_list: ./,
    ],
    [
      "a metadata_list not an array",
      { operation_data: [{ document_id: "DOC", metadata_list: "x" }] },
      /^operation_data\.0\.metadata_list: ./,
    ],
    [
      "an item without id",
      { operation_data: [{ document_id: "DOC", metadata_list: [{ value: "x" }] }] },
      /^operation_data\.0\.metadata_list\.0\.id: ./,
    ],
    [
      "an item that is not an object",
      { operation_data: [{ document_id: "DOC", metadata_list: ["x"] }] },
      /^operation_data\.0\.metadata_list\.0: ./,
    ],
    [
      "a boolean value",
      { operation_data: [{ document_id: "DOC", metadata_list: [{ id: "FIELD", value: true }] }] },
      /^operation_data\.0\.metadata_list\.0\.value: ./,
    ],
    [
      "an object value",
      { operation_data: [{ document_id: "DOC", metadata_list: [{ id: "FIELD", value: { a: 1 } }] }] },
      /^operation_data\.0\.metadata_list\.0\.value: ./,
    ],
    [
      "an array value",
      { operation_data: [{ document_id: "DOC", metadata_list: [{ id: "FIELD", value: ["a"] }] }] },
      /^operation_data\.0\.metadata_list\.0\.value: ./,
    ],
    [
      "a partial_update not a boolean",
      { operation_data: [{ document_id: "DOC", metadata_list: [], partial_update: "true" }] },
      /^operation_data\.0\.partial_update: ./,
    ],
  ])("answers 400 invalid_param for %s, writing nothing", async (_case, template, message) => {
    const kb = await aKnowledgeBase();
    const body = JSON.parse(
      JSON.stringify(template)
        .replaceAll('"DOC"', `"${kb.first.id}"`)
        .replaceAll('"FIELD"', `"${kb.fields.label.id}"`),
    );
    await expectNothingWritten(kb, async () => {
      expectAnswer(await setValues(kb.dataset.id, body), 400, invalidParam(expect.stringMatching(message)));
    });
  });

  it("checks every field of the body before any record: a malformed later operation wins over a missing document", async () => {
    const kb = await aKnowledgeBase();
    await expectNothingWritten(kb, async () => {
      expectAnswer(
        await set(kb, [
          operation(crypto.randomUUID(), [{ id: crypto.randomUUID(), value: "x" }], true),
          { document_id: kb.first.id, metadata_list: [{ id: kb.fields.label.id, value: false }] },
        ]),
        400,
        invalidParam(expect.stringMatching(/^operation_data\.1\.metadata_list\.0\.value: ./)),
      );
    });
  });

  it("writes nothing when a later operation fails: values and counts stay", async () => {
    const kb = await aKnowledgeBase();
    const good = [
      operation(kb.first.id, [{ id: kb.fields.when.id, value: 99 }], false),
      operation(
        kb.second.id,
        [
          { id: kb.fields.score.id, value: "5" },
          { id: kb.fields.label.id, value: null },
        ],
        true,
      ),
    ];
    const failing = [
      [operation(crypto.randomUUID(), [], true), 404, DOCUMENT_NOT_FOUND],
      [operation(kb.first.id, [{ id: "built-in", value: "x" }], true), 404, METADATA_NOT_FOUND],
      [
        operation(kb.first.id, [{ id: kb.fields.score.id, value: "x" }], true),
        400,
        invalidParam("operation_data.2.metadata_list.0.value: must be a finite number or numeric string."),
      ],
    ] as const;
    const listedBefore = await listFields(kb.dataset.id);
    const firstBefore = await docMetadata(kb.dataset.id, kb.first.id);
    const secondBefore = await docMetadata(kb.dataset.id, kb.second.id);
    await expectNothingWritten(kb, async () => {
      for (const [last, status, body] of failing) {
        expectAnswer(await set(kb, [...good, last]), status, body);
      }
    });
    expect(await listFields(kb.dataset.id)).toEqual(listedBefore);
    expect(await docMetadata(kb.dataset.id, kb.first.id)).toEqual(firstBefore);
    expect(await docMetadata(kb.dataset.id, kb.second.id)).toEqual(secondBefore);
    // The same operations without the failing one go through.
    expectAnswer(await set(kb, good), 200, SUCCESS);
    expect((await listFields(kb.dataset.id)).doc_metadata).toEqual([
      usage(kb.fields.label, 0),
      usage(kb.fields.score, 1),
      usage(kb.fields.when, 1),
    ]);
  });
});

describe("field writes and the built-ins' toggle, checked as they write", () => {
  it("answer the dataset's 404 and 403 before their own 400 and 404, writing nothing", async () => {
    const closed = await aKnowledgeBase({ enableApi: false });
    const [label, score] = [closed.fields.label.id, closed.fields.score.id];
    const refusedWrites = (datasetId: string) => [
      () => createField(datasetId, { type: "string", name: " " }),
      () => createField(datasetId, { type: "string", name: "label" }),
      () => createField(datasetId, { type: "string", name: "fresh" }),
      () => renameField(datasetId, label, { name: " " }),
      () => renameField(datasetId, label, { name: "score" }),
      () => renameField(datasetId, crypto.randomUUID(), { name: "fresh" }),
      () => renameField(datasetId, score, { name: "fresh" }),
      () => deleteField(datasetId, crypto.randomUUID()),
      () => deleteField(datasetId, score),
      // A toggle that would change nothing, and one that would.
      () => toggleBuiltIn(datasetId, "enable"),
      () => toggleBuiltIn(datasetId, "disable"),
    ];
    await expectNothingWritten(closed, async () => {
      for (const write of refusedWrites(closed.dataset.id)) expectAnswer(await write(), 403, API_DISABLED);
      for (const write of refusedWrites(crypto.randomUUID()))
        expectAnswer(await write(), 404, DATASET_NOT_FOUND);
    });
    const foreign = await aKnowledgeBase({}, elsewhere.workspace.id);
    await expectNothingWritten(foreign, async () => {
      for (const write of refusedWrites(foreign.dataset.id))
        expectAnswer(await write(), 404, DATASET_NOT_FOUND);
    });
  });
});
