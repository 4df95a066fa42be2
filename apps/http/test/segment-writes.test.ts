import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RandomUuidGenerator, Sha256TokenHasher, SystemClock } from "@service-api/adapters-node";
import { ExportData, ImportData } from "@service-api/provisioning";
import { openStore } from "@service-api/stores";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { aChunkedDocument, HIERARCHICAL, PARAGRAPHS } from "./support/chunked-document.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const aDocument = (rule?: unknown, docForm?: string, text?: string) =>
  aChunkedDocument(server, rule, docForm, text);

/** Dify's `index_node_hash`: SHA-256 of the content + "None". */
const difyHash = (content: string) => createHash("sha256").update(`${content}None`).digest("hex");

interface Chunk {
  id: string;
  position: number;
  content: string;
  word_count: number;
  keywords: string[];
  enabled: boolean;
  child_chunks: { id: string; content: string; position: number; type: string }[];
}

/** What a document's counts say now: its words (as the list shows them), the dataset's, its chunks. */
async function countsOf({ send, datasetId, documentId, base }: Awaited<ReturnType<typeof aDocument>>) {
  const listed = (await send("GET", `/datasets/${datasetId}/documents`)).body.data as {
    id: string;
    word_count: number;
  }[];
  const chunks = (await send("GET", `${base}?limit=100`)).body.data as Chunk[];
  return {
    documentWords: listed.find((document) => document.id === documentId)!.word_count,
    datasetWords: (await send("GET", `/datasets/${datasetId}`)).body.word_count as number,
    segmentCount: (await send("GET", `/datasets/${datasetId}/documents/${documentId}`)).body.segment_count,
    recount: chunks.reduce((sum, chunk) => sum + chunk.word_count, 0),
    chunks,
  };
}

/** Sets stored fields of the document directly: states the API reaches only through indexing. */
async function storeDocument(datasetId: string, documentId: string, change: Record<string, unknown>) {
  const { documents } = server.store.repositories;
  const stored = await documents.findInDataset(datasetId, documentId);
  await documents.save({ ...stored!, ...change });
}

describe("POST /v1/datasets/{dataset_id}/documents/{document_id}/segments", () => {
  it("adds chunks after the last, as Dify makes them, their words on the document's and the dataset's counts", async () => {
    const document = await aDocument();
    const { send, base, workspaceId, documentId } = document;
    const before = await countsOf(document);
    const added = await send("POST", base, {
      segments: [
        { content: "Hand-written 👋 chunk", keywords: ["hand", "written", "hand"] },
        { content: "Another one", answer: "ignored outside QA" },
      ],
    });
    expect(added.status).toBe(200);
    expect(added.body.doc_form).toBe("text_model");
    const owner = await server.store.repositories.workspaces.findOwner(workspaceId);
    const [first, second] = added.body.data;
    expect(first).toMatchObject({
      position: 7,
      document_id: documentId,
      content: "Hand-written 👋 chunk",
      sign_content: "Hand-written 👋 chunk",
      answer: null,
      word_count: 20,
      tokens: 0,
      keywords: ["hand", "written"],
      index_node_hash: difyHash("Hand-written 👋 chunk"),
      hit_count: 0,
      enabled: true,
      disabled_at: null,
      status: "completed",
      created_by: owner!.id,
      updated_by: null,
      error: null,
      child_chunks: [],
      attachments: [],
      summary: null,
    });
    expect(first.index_node_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.completed_at).toBe(first.indexing_at);
    expect(second).toMatchObject({ position: 8, answer: null, keywords: ["one"], word_count: 11 });
    const after = await countsOf(document);
    expect(after.chunks.map((chunk) => chunk.content)).toEqual([
      ...PARAGRAPHS,
      "Hand-written 👋 chunk",
      "Another one",
    ]);
    expect(after.documentWords).toBe(before.documentWords + 31);
    expect(after.datasetWords).toBe(before.datasetWords + 31);
    expect(after.documentWords).toBe(after.recount);
    expect(after.segmentCount).toBe(8);
    expect((await send("GET", `${base}/${first.id}`)).body.data).toEqual(first);
  });

  it("gives a parent-child document's new chunks their child chunks by the document's rule", async () => {
    const { send, base } = await aDocument(HIERARCHICAL, "hierarchical_model", "One a. One b.");
    const added = await send("POST", base, { segments: [{ content: "New a. New b. New c." }] });
    expect(added.status).toBe(200);
    const [parent] = added.body.data as Chunk[];
    expect(parent!.position).toBe(2);
    expect(parent!.child_chunks.map((child) => [child.content, child.position, child.type])).toEqual([
      ["New a", 1, "automatic"],
      ["New b", 2, "automatic"],
      ["New c.", 3, "automatic"],
    ]);
    const listed = await send("GET", `${base}/${parent!.id}/child_chunks`);
    expect(listed.body.total).toBe(3);
  });

  it("checks in Dify's order: the document, completed, enabled, the model, then the body", async () => {
    const document = await aDocument();
    const { send, base, datasetId, documentId } = document;
    const missing = `/datasets/${datasetId}/documents/${globalThis.crypto.randomUUID()}/segments`;
    expect((await send("POST", missing, { segments: "not a list" })).body).toMatchObject({
      status: 404,
      message: "Document not found.",
    });
    await storeDocument(datasetId, documentId, { indexingStatus: "indexing" });
    expect((await send("POST", base, {})).body).toMatchObject({
      status: 404,
      message: "Document is not completed.",
    });
    await storeDocument(datasetId, documentId, { indexingStatus: "completed", enabled: false });
    expect((await send("POST", base, {})).body).toMatchObject({
      status: 404,
      message: "Document is disabled.",
    });
    await storeDocument(datasetId, documentId, { enabled: true });
    const { datasets } = server.store.repositories;
    const dataset = (await datasets.findInWorkspace(document.workspaceId, datasetId))!;
    await datasets.save({ ...dataset, indexingTechnique: "high_quality" });
    expect((await send("POST", base, {})).body).toMatchObject({
      status: 400,
      code: "provider_not_initialize",
    });
    await datasets.save(dataset);
    expect((await send("POST", base, {})).body).toEqual({
      status: 400,
      code: "invalid_param",
      message: "Segments is required",
    });
    expect((await countsOf(document)).segmentCount).toBe(6);
  });

  it("refuses bad chunks with a clear 400 and writes none of the request", async () => {
    const document = await aDocument();
    const { send, base } = document;
    const before = await countsOf(document);
    const refusals: [unknown, string][] = [
      [{ segments: [] }, "Segments is required"],
      [{ segments: null }, "Segments is required"],
      [{ segments: {} }, "segments: must be a list."],
      [{ segments: [{ content: "fine" }, "text"] }, "segments: each segment must be an object."],
      [{ segments: [{ content: "fine" }, { content: "" }] }, "Content is empty"],
      [{ segments: [{ content: " \t\u3000\n" }] }, "Content is empty"],
      [{ segments: [{}] }, "Content is empty"],
      [{ segments: [{ content: 5 }] }, "content: must be a string."],
      [
        { segments: [{ content: "a\u0000b" }] },
        "content: must not contain NUL characters or unpaired surrogates.",
      ],
      [
        { segments: [{ content: "lone \ud800" }] },
        "content: must not contain NUL characters or unpaired surrogates.",
      ],
      [{ segments: [{ content: "x", keywords: "one" }] }, "keywords: must be a list of strings."],
      [{ segments: [{ content: "x", keywords: [1] }] }, "keywords: must be a list of strings."],
      [
        { segments: [{ content: "x", attachment_ids: ["a"] }] },
        "attachment_ids: image attachments are not supported here.",
      ],
      [
        { segments: Array.from({ length: 10_000 }, (_, index) => ({ content: `chunk ${index}` })) },
        "Exceeded maximum segments limit of 1000.",
      ],
    ];
    for (const [body, message] of refusals) {
      const response = await send("POST", base, body);
      expect(response.body, message).toEqual({ status: 400, code: "invalid_param", message });
    }
    expect(await countsOf(document)).toEqual(before);
    // Up to the limit is taken whole.
    const many = Array.from({ length: 1000 }, (_, index) => ({ content: `chunk ${index}` }));
    expect((await send("POST", base, { segments: many })).body.data).toHaveLength(1000);
    const after = await countsOf(document);
    expect(after.segmentCount).toBe(1006);
    const addedWords = many.reduce((sum, { content }) => sum + content.length, 0);
    expect(after.documentWords).toBe(before.documentWords + addedWords);
    expect(after.datasetWords).toBe(before.datasetWords + addedWords);
  });

  it("asks a QA document's chunks for an answer, and counts its words with the content's", async () => {
    const document = await aDocument();
    const { send, base, datasetId, documentId } = document;
    await storeDocument(datasetId, documentId, { docForm: "qa_model" });
    for (const [answer, message] of [
      [undefined, "Answer is required"],
      ["", "Answer is required"],
      ["  ", "Answer is empty"],
    ] as const)
      expect((await send("POST", base, { segments: [{ content: "Q?", answer }] })).body.message).toBe(
        message,
      );
    const added = await send("POST", base, { segments: [{ content: "Q?", answer: "Answer." }] });
    expect(added.body).toMatchObject({ doc_form: "qa_model", data: [{ answer: "Answer.", word_count: 9 }] });
  });
});

describe("keywords of chunks written without any", () => {
  it("are the chunk's best terms by TF-IDF over its dataset, as the words appear, best first", async () => {
    const { send, base } = await aDocument();
    const added = await send("POST", base, {
      segments: [{ content: "Shells and hypersonic flutter, flutter of alpha." }],
    });
    // "flutter" twice; "alpha" is in the dataset's other chunks already, so it weighs least.
    expect(added.body.data[0].keywords).toEqual(["flutter", "shells", "hypersonic", "alpha"]);
    const changed = await send("POST", `${base}/${added.body.data[0].id}`, {
      segment: { content: "Conical shells." },
    });
    expect(changed.body.data.keywords).toEqual(["conical", "shells"]);
    const kept = await send("POST", `${base}/${added.body.data[0].id}`, { segment: { enabled: true } });
    expect(kept.body.data.keywords).toEqual(["conical", "shells"]);
  });
});

describe("POST /v1/datasets/{dataset_id}/documents/{document_id}/segments/{segment_id}", () => {
  it("changes a chunk's content: a new hash, its words on the counts, its position kept", async () => {
    const document = await aDocument();
    const { send, base } = document;
    const before = await countsOf(document);
    const target = before.chunks[2]!;
    const updated = await send("POST", `${base}/${target.id}`, {
      segment: { content: "Beta, rewritten at length.", keywords: ["beta"] },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.doc_form).toBe("text_model");
    expect(updated.body.data).toMatchObject({
      id: target.id,
      position: 3,
      content: "Beta, rewritten at length.",
      word_count: 26,
      keywords: ["beta"],
      index_node_hash: difyHash("Beta, rewritten at length."),
      status: "completed",
      enabled: true,
    });
    expect(updated.body.data.updated_by).toEqual(expect.any(String));
    const after = await countsOf(document);
    expect(after.documentWords).toBe(before.documentWords + 26 - target.word_count);
    expect(after.datasetWords).toBe(before.datasetWords + 26 - target.word_count);
    expect(after.documentWords).toBe(after.recount);
    expect(after.chunks[2]).toEqual(updated.body.data);
    // Keywords alone: the content, its hash and its times stay.
    const keywords = await send("POST", `${base}/${target.id}`, { segment: { keywords: ["b", "a"] } });
    expect(keywords.body.data).toEqual({ ...updated.body.data, keywords: ["b", "a"] });
  });

  it("disables a chunk, refuses to change a disabled one, and takes it back with enabled: true", async () => {
    const { send, base } = await aDocument();
    const [chunk] = (await send("GET", base)).body.data as Chunk[];
    const disabled = await send("POST", `${base}/${chunk!.id}`, {
      segment: { enabled: false, content: "not taken with a disable" },
    });
    expect(disabled.body.data).toMatchObject({ enabled: false, content: chunk!.content });
    expect(disabled.body.data.disabled_at).toEqual(expect.any(Number));
    expect(disabled.body.data.disabled_by).toEqual(expect.any(String));
    for (const segment of [{ content: "changed" }, { enabled: false }])
      expect((await send("POST", `${base}/${chunk!.id}`, { segment })).body).toEqual({
        status: 400,
        code: "invalid_param",
        message: "Can't update disabled segment",
      });
    const enabled = await send("POST", `${base}/${chunk!.id}`, { segment: { enabled: true } });
    expect(enabled.body.data).toMatchObject({ enabled: true, disabled_at: null, disabled_by: null });
    expect(enabled.body.data.content).toBe(chunk!.content);
  });

  it("re-splits a parent's children only when asked", async () => {
    const { send, base } = await aDocument(HIERARCHICAL, "hierarchical_model", "One a. One b.");
    const [parent] = (await send("GET", base)).body.data as Chunk[];
    const kept = await send("POST", `${base}/${parent!.id}`, {
      segment: { content: "Two a. Two b. Two c." },
    });
    expect(kept.body.data.child_chunks).toEqual(parent!.child_chunks);
    const regenerated = await send("POST", `${base}/${parent!.id}`, {
      segment: { regenerate_child_chunks: true },
    });
    expect(regenerated.body.data.child_chunks.map((child: { content: string }) => child.content)).toEqual([
      "Two a",
      "Two b",
      "Two c.",
    ]);
    const listed = await send("GET", `${base}/${parent!.id}/child_chunks`);
    expect(listed.body.data).toEqual(regenerated.body.data.child_chunks);
  });

  it("refuses a bad change with a 400 and changes nothing; finds only its own document's chunk", async () => {
    const document = await aDocument();
    const other = await aDocument();
    const { send, base } = document;
    const before = await countsOf(document);
    const target = before.chunks[0]!;
    for (const [body, message] of [
      [{}, "segment: must be an object."],
      [{ segment: [] }, "segment: must be an object."],
      [{ segment: { content: "" } }, "Content is empty"],
      [{ segment: { content: "   " } }, "Content is empty"],
      [{ segment: { content: "ok", enabled: "yes" } }, "enabled: must be true or false."],
      [{ segment: { keywords: [null] } }, "keywords: must be a list of strings."],
    ] as const) {
      const response = await send("POST", `${base}/${target.id}`, body);
      expect(response.body, message).toEqual({ status: 400, code: "invalid_param", message });
    }
    expect(
      (await send("POST", `${base}/${target.id}`, { segment: { summary: "a summary" } })).body,
    ).toMatchObject({ status: 400, code: "provider_not_initialize" });
    const [theirs] = (await other.send("GET", other.base)).body.data as Chunk[];
    expect((await send("POST", `${base}/${theirs!.id}`, { segment: { content: "x" } })).body).toMatchObject({
      status: 404,
      message: "Segment not found.",
    });
    expect(
      (await other.send("POST", `${base}/${target.id}`, { segment: { content: "x" } })).body,
    ).toMatchObject({
      status: 404,
      message: "Dataset not found.",
    });
    expect((await send("POST", `${base}/not-a-uuid`, { segment: { content: "x" } })).body).toMatchObject({
      status: 404,
    });
    expect(await countsOf(document)).toEqual(before);
    expect((await other.send("GET", `${other.base}/${theirs!.id}`)).body.data.content).toBe(theirs!.content);
  });
});

describe("child chunks: POST …/child_chunks, PATCH and DELETE …/child_chunks/{child_chunk_id}", () => {
  it("adds a customized child chunk after the last, changes it, deletes it", async () => {
    const { send, base } = await aDocument(HIERARCHICAL, "hierarchical_model", "One a. One b.");
    const [parent] = (await send("GET", base)).body.data as Chunk[];
    const children = `${base}/${parent!.id}/child_chunks`;
    const added = await send("POST", children, { content: "Mine 👋" });
    expect(added.status).toBe(200);
    expect(Object.keys(added.body)).toEqual(["data"]);
    expect(added.body.data).toMatchObject({
      segment_id: parent!.id,
      content: "Mine 👋",
      position: 3,
      word_count: 6,
      type: "customized",
    });
    const first = parent!.child_chunks[0]!;
    const changed = await send("PATCH", `${children}/${first.id}`, { content: "First, changed" });
    expect(changed.body.data).toMatchObject({
      id: first.id,
      content: "First, changed",
      position: 1,
      word_count: 14,
      type: "customized",
    });
    const deleted = await send("DELETE", `${children}/${added.body.data.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    const listed = (await send("GET", children)).body.data as { content: string }[];
    expect(listed.map((child) => child.content)).toEqual(["First, changed", "One b."]);
    expect((await send("DELETE", `${children}/${added.body.data.id}`)).body).toMatchObject({
      status: 404,
      message: "Child chunk not found.",
    });
  });

  it("refuses blank content, another chunk's child chunk, and a text document's chunks", async () => {
    const { send, base } = await aDocument(HIERARCHICAL, "hierarchical_model", "One a. One b.\n\nTwo a.");
    const [parent, sibling] = (await send("GET", base)).body.data as Chunk[];
    const children = `${base}/${parent!.id}/child_chunks`;
    for (const body of [{}, { content: "" }, { content: " \n" }])
      expect((await send("POST", children, body)).body).toEqual({
        status: 400,
        code: "invalid_param",
        message: "Content is empty",
      });
    expect(
      (await send("PATCH", `${children}/${parent!.child_chunks[0]!.id}`, { content: " " })).body.message,
    ).toBe("Content is empty");
    const theirs = sibling!.child_chunks[0]!;
    for (const method of ["PATCH", "DELETE"])
      expect((await send(method, `${children}/${theirs.id}`, { content: "x" })).body).toMatchObject({
        status: 404,
        message: "Child chunk not found.",
      });
    expect((await send("GET", `${base}/${sibling!.id}/child_chunks`)).body.data[0]).toEqual(theirs);
    expect((await send("GET", children)).body.total).toBe(2);
    const text = await aDocument();
    const [chunk] = (await text.send("GET", text.base)).body.data as Chunk[];
    expect(
      (await text.send("POST", `${text.base}/${chunk!.id}/child_chunks`, { content: "x" })).body,
    ).toMatchObject({
      status: 400,
      code: "invalid_param",
      message: "Child chunks belong to the segments of a parent-child (hierarchical_model) document.",
    });
  });
});

describe("import and export of hand-made chunks", () => {
  it("carry added, disabled, keyworded chunks and customized child chunks unchanged into another store", async () => {
    const { send, base, documentId } = await aDocument(HIERARCHICAL, "hierarchical_model", "One a. One b.");
    const added = await send("POST", base, {
      segments: [{ content: "Hand. Made.", keywords: ["hand", "made"] }, { content: "To disable" }],
    });
    const [handMade, toDisable] = added.body.data as Chunk[];
    await send("POST", `${base}/${toDisable!.id}`, { segment: { enabled: false } });
    await send("POST", `${base}/${handMade!.id}/child_chunks`, { content: "A customized child" });
    const { segments } = server.store.repositories;
    const written = await segments.listOfDocument(documentId);
    const children = await segments.listChildrenOfDocument(documentId);
    expect(written.map((segment) => [segment.enabled, segment.keywords])).toEqual([
      [true, []],
      [true, ["hand", "made"]],
      [false, ["disable"]],
    ]);
    expect(children.map((child) => child.type)).toContain("customized");

    const directory = mkdtempSync(join(tmpdir(), "service-api-chunks-export-"));
    const copy = await openStore({ databaseUrl: join(directory, "copy.sqlite") });
    onTestFinished(async () => {
      await copy.close();
      rmSync(directory, { recursive: true, force: true });
    });
    const exported = await new ExportData(server.store).execute();
    await new ImportData(copy, new RandomUuidGenerator(), new Sha256TokenHasher(), new SystemClock()).execute(
      exported,
    );
    expect(await copy.repositories.segments.listOfDocument(documentId)).toEqual(written);
    expect(await copy.repositories.segments.listChildrenOfDocument(documentId)).toEqual(children);
  });
});
