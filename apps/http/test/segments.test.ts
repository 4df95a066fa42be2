import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aChunkedDocument, HIERARCHICAL, PARAGRAPHS } from "./support/chunked-document.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const aDocument = (rule?: unknown, docForm?: string, text?: string) =>
  aChunkedDocument(server, rule, docForm, text);

const contents = (response: { body: { data: { content: string }[] } }) =>
  response.body.data.map((segment) => segment.content);

describe("GET /v1/datasets/{dataset_id}/documents/{document_id}/segments", () => {
  it("pages a document's chunks by position, each in Dify's fields and order", async () => {
    const { send, base, documentId } = await aDocument();
    const all = await send("GET", base);
    expect(all.status).toBe(200);
    expect(contents(all)).toEqual(PARAGRAPHS);
    expect(all.body).toMatchObject({ doc_form: "text_model", total: 6, has_more: false, limit: 20, page: 1 });
    expect(Object.keys(all.body.data[0])).toEqual([
      "id",
      "position",
      "document_id",
      "content",
      "sign_content",
      "answer",
      "word_count",
      "tokens",
      "keywords",
      "index_node_id",
      "index_node_hash",
      "hit_count",
      "enabled",
      "disabled_at",
      "disabled_by",
      "status",
      "created_by",
      "created_at",
      "updated_at",
      "updated_by",
      "indexing_at",
      "completed_at",
      "error",
      "stopped_at",
      "child_chunks",
      "attachments",
      "summary",
    ]);
    expect(all.body.data[1]).toMatchObject({
      position: 2,
      document_id: documentId,
      content: "alpha_two 50%",
      sign_content: "alpha_two 50%",
      word_count: 13,
      status: "completed",
      enabled: true,
      child_chunks: [],
      attachments: [],
    });
    const second = await send("GET", `${base}?page=2&limit=4`);
    expect(contents(second)).toEqual(PARAGRAPHS.slice(4));
    expect(second.body).toMatchObject({ total: 6, has_more: false, limit: 4, page: 2 });
    expect((await send("GET", `${base}?page=1&limit=4`)).body.has_more).toBe(true);
    const capped = await send("GET", `${base}?limit=250`);
    expect(capped.body).toMatchObject({ limit: 100, total: 6 });
    expect((await send("GET", `${base}?page=9`)).body).toMatchObject({ data: [], total: 6, has_more: false });
  });

  it("filters by status (repeated) and by a substring of the content, any ASCII case, % and _ as themselves", async () => {
    const { send, base } = await aDocument();
    expect(contents(await send("GET", `${base}?keyword=alpha`))).toEqual([
      "Alpha one.",
      "alpha_two 50%",
      "ALPHA five.",
    ]);
    expect(contents(await send("GET", `${base}?keyword=50%25`))).toEqual(["alpha_two 50%"]);
    expect(contents(await send("GET", `${base}?keyword=a_t`))).toEqual(["alpha_two 50%"]);
    expect((await send("GET", `${base}?keyword=a%25e`)).body.total).toBe(0);
    expect((await send("GET", `${base}?status=error&status=completed&keyword=ALPHA`)).body.total).toBe(3);
    expect((await send("GET", `${base}?status=error`)).body).toMatchObject({ data: [], total: 0 });
  });

  it("shows a hierarchical document's chunks with their child chunks", async () => {
    const { send, base } = await aDocument(
      HIERARCHICAL,
      "hierarchical_model",
      "One a. One b.\n\nTwo a. Two b. Two c.",
    );
    const page = await send("GET", base);
    expect(page.body.doc_form).toBe("hierarchical_model");
    expect(
      page.body.data.map((segment: { child_chunks: { content: string }[] }) =>
        segment.child_chunks.map((child) => child.content),
      ),
    ).toEqual([
      // Dify's splitter drops the custom separator it splits on.
      ["One a", "One b."],
      ["Two a", "Two b", "Two c."],
    ]);
    expect(Object.keys(page.body.data[0].child_chunks[0])).toEqual([
      "id",
      "segment_id",
      "content",
      "position",
      "word_count",
      "type",
      "created_at",
      "updated_at",
    ]);
    const parent = page.body.data[1];
    const children = await send("GET", `${base}/${parent.id}/child_chunks?limit=2&page=2`);
    expect(children.body).toMatchObject({ total: 3, total_pages: 2, page: 2, limit: 2 });
    expect(children.body.data.map((child: { content: string }) => child.content)).toEqual(["Two c."]);
    const found = await send("GET", `${base}/${parent.id}/child_chunks?keyword=TWO%20B`);
    expect(found.body.data.map((child: { content: string }) => child.content)).toEqual(["Two b"]);
    expect((await send("GET", `${base}/${globalThis.crypto.randomUUID()}/child_chunks`)).body).toMatchObject({
      status: 404,
      message: "Segment not found.",
    });
    expect((await send("GET", `${base}/${parent.id}/child_chunks?limit=0`)).body).toMatchObject({
      status: 400,
    });
    expect(page.body.data[0].child_chunks[0]).toMatchObject({
      position: 1,
      word_count: 5,
      type: "automatic",
    });
  });

  it("refuses a page or limit of 0 or not digits, and answers a missing document or dataset with 404", async () => {
    const { send, base, datasetId } = await aDocument();
    for (const query of ["page=0", "page=x", "limit=0", "limit=1.5", "limit=-3"]) {
      const response = await send("GET", `${base}?${query}`);
      expect(response.body, query).toMatchObject({ status: 400, code: "invalid_param" });
    }
    const missing = globalThis.crypto.randomUUID();
    expect((await send("GET", `/datasets/${datasetId}/documents/${missing}/segments`)).body).toMatchObject({
      status: 404,
      message: "Document not found.",
    });
    expect((await send("GET", `/datasets/${missing}/documents/${missing}/segments`)).body).toMatchObject({
      status: 404,
      message: "Dataset not found.",
    });
  });
});

describe("GET and DELETE /v1/datasets/{dataset_id}/documents/{document_id}/segments/{segment_id}", () => {
  it("gets a chunk of its own document only", async () => {
    const mine = await aDocument();
    const other = await aDocument();
    const [first] = (await mine.send("GET", mine.base)).body.data;
    const got = await mine.send("GET", `${mine.base}/${first.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ data: first, doc_form: "text_model" });
    const [theirs] = (await other.send("GET", other.base)).body.data;
    expect((await mine.send("GET", `${mine.base}/${theirs.id}`)).body).toMatchObject({
      status: 404,
      message: "Segment not found.",
    });
    expect((await mine.send("GET", `${mine.base}/not-a-uuid`)).body).toMatchObject({ status: 404 });
    expect((await other.send("GET", `${mine.base}/${first.id}`)).body).toMatchObject({
      status: 404,
      message: "Dataset not found.",
    });
  });

  it("deletes a chunk: 204, gone from the list, its words off the document's and the dataset's counts", async () => {
    const { send, base, datasetId, documentId } = await aDocument();
    const segments = (await send("GET", base)).body.data as { id: string; word_count: number }[];
    const before = await send("GET", `/datasets/${datasetId}`);
    const listed = async () =>
      (
        (await send("GET", `/datasets/${datasetId}/documents`)).body.data as {
          id: string;
          word_count: number;
        }[]
      ).find((document) => document.id === documentId)!;
    const wordsBefore = (await listed()).word_count;
    const deleted = await send("DELETE", `${base}/${segments[1]!.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    const after = await send("GET", base);
    expect(contents(after)).toEqual(PARAGRAPHS.filter((_, index) => index !== 1));
    expect((await listed()).word_count).toBe(wordsBefore - segments[1]!.word_count);
    expect((await send("GET", `/datasets/${datasetId}`)).body.word_count).toBe(
      before.body.word_count - segments[1]!.word_count,
    );
    expect((await send("GET", `/datasets/${datasetId}/documents/${documentId}`)).body.segment_count).toBe(5);
    expect((await send("DELETE", `${base}/${segments[1]!.id}`)).body).toMatchObject({
      status: 404,
      message: "Segment not found.",
    });
  });

  it("deletes nothing for another workspace's key or another document's chunk", async () => {
    const mine = await aDocument();
    const other = await aDocument();
    const [first] = (await mine.send("GET", mine.base)).body.data;
    expect((await other.send("DELETE", `${mine.base}/${first.id}`)).body).toMatchObject({
      status: 404,
      message: "Dataset not found.",
    });
    expect((await other.send("DELETE", `${other.base}/${first.id}`)).body).toMatchObject({
      status: 404,
      message: "Segment not found.",
    });
    expect((await mine.send("GET", mine.base)).body.total).toBe(6);
  });
});
