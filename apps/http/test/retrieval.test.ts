import { analyze, countTerms } from "@service-api/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aChunkedDocument, HIERARCHICAL } from "./support/chunked-document.js";
import { eventually } from "./support/load.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const PARAGRAPHS = [
  "Supersonic flow over a flat plate: the boundary layer thickens downstream.",
  "Heat transfer in laminar boundary layers of compressible flow.",
  "A note on the buckling of thin cylindrical shells under axial compression.",
  "Boundary layer transition at supersonic speeds, measured in a wind tunnel.",
  "Shells, shells and more shells: the vibration of conical shells.",
];

/** A paragraph a chunk. */
const BY_PARAGRAPH = {
  mode: "custom",
  rules: { pre_processing_rules: [], segmentation: { separator: "\n\n", max_tokens: 500, chunk_overlap: 0 } },
};

const aKnowledgeBase = (text = PARAGRAPHS.join("\n\n"), rule: unknown = BY_PARAGRAPH, docForm?: string) =>
  aChunkedDocument(server, rule, docForm, text);

const KEYWORD = {
  search_method: "keyword_search",
  reranking_enable: false,
  top_k: 10,
  score_threshold_enabled: false,
};
const FULL_TEXT = { ...KEYWORD, search_method: "full_text_search" };

/** Textbook BM25 (k1 1.2, b 0.75) of each text, over the parts of the score the query can reach. */
function expectedScores(texts: readonly string[], query: string): number[] {
  const k1 = 1.2;
  const b = 0.75;
  const documents = texts.map((text) => countTerms(analyze(text)));
  const lengths = documents.map((terms) => Object.values(terms).reduce((sum, count) => sum + count, 0));
  const average = lengths.reduce((sum, length) => sum + length, 0) / texts.length;
  let best = 0;
  const raw = documents.map((terms, index) => {
    let score = 0;
    for (const [term, count] of Object.entries(countTerms(analyze(query)))) {
      const df = documents.filter((other) => other[term]).length;
      if (!df) continue;
      const idf = Math.log(1 + (texts.length - df + 0.5) / (df + 0.5));
      if (index === 0) best += count * idf * (k1 + 1);
      const tf = terms[term] ?? 0;
      score += (count * idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * lengths[index]!) / average));
    }
    return score;
  });
  return raw.map((score) => score / best);
}

interface Record_ {
  segment: { id: string; content: string; document: { id: string; doc_metadata: unknown } };
  child_chunks: { content: string; score: number }[];
  score: number;
}

describe("POST /v1/datasets/{dataset_id}/retrieve", () => {
  it("ranks a dataset's chunks by BM25, scores over the query's best, in Dify's record shape", async () => {
    const { send, datasetId, documentId } = await aKnowledgeBase();
    const query = "supersonic boundary layer";
    const found = await send("POST", `/datasets/${datasetId}/retrieve`, {
      query,
      retrieval_model: FULL_TEXT,
    });
    expect(found.status).toBe(200);
    expect(found.body.query).toEqual({ content: query });
    const expected = expectedScores(PARAGRAPHS, query)
      .map((score, index) => ({ score, content: PARAGRAPHS[index]! }))
      .filter(({ score }) => score > 0)
      .sort((a, b) => b.score - a.score);
    const records = found.body.records as Record_[];
    expect(records.map((record) => record.segment.content)).toEqual(expected.map(({ content }) => content));
    for (const [index, record] of records.entries()) {
      expect(record.score).toBeCloseTo(expected[index]!.score, 9);
      expect(record.score).toBeGreaterThan(0);
      expect(record.score).toBeLessThanOrEqual(1);
    }
    expect(Object.keys(found.body.records[0])).toEqual([
      "segment",
      "child_chunks",
      "score",
      "tsne_position",
      "files",
      "summary",
    ]);
    expect(Object.keys(found.body.records[0].segment)).toEqual([
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
      "indexing_at",
      "completed_at",
      "error",
      "stopped_at",
      "document",
    ]);
    expect(found.body.records[0]).toMatchObject({
      child_chunks: [],
      tsne_position: null,
      files: [],
      summary: null,
      segment: {
        document_id: documentId,
        document: { id: documentId, data_source_type: "upload_file", name: "chunks.txt", doc_metadata: null },
      },
    });
    // The alias answers the same; retrieval counts no hits.
    const alias = await send("POST", `/datasets/${datasetId}/hit-testing`, {
      query,
      retrieval_model: FULL_TEXT,
    });
    expect(alias.body).toEqual(found.body);
    const chunks = (await send("GET", `/datasets/${datasetId}/documents/${documentId}/segments`)).body.data;
    expect(chunks.every((chunk: { hit_count: number }) => chunk.hit_count === 0)).toBe(true);
  });

  it("searches keywords in keyword search only, keeps top_k and the threshold, and defaults to keyword search of 4", async () => {
    const { send, base, datasetId } = await aKnowledgeBase();
    const chunks = (await send("GET", base)).body.data as { id: string }[];
    await send("POST", `${base}/${chunks[2]!.id}`, { segment: { keywords: ["aeroelasticity"] } });
    const keyword = await send("POST", `/datasets/${datasetId}/retrieve`, {
      query: "aeroelasticity",
      retrieval_model: KEYWORD,
    });
    expect(keyword.body.records.map((record: Record_) => record.segment.id)).toEqual([chunks[2]!.id]);
    const fullText = await send("POST", `/datasets/${datasetId}/retrieve`, {
      query: "aeroelasticity",
      retrieval_model: FULL_TEXT,
    });
    expect(fullText.body.records).toEqual([]);
    const top2 = await send("POST", `/datasets/${datasetId}/retrieve`, {
      query: "boundary shells flow",
      retrieval_model: { ...KEYWORD, top_k: 2 },
    });
    expect(top2.body.records).toHaveLength(2);
    const all = await send("POST", `/datasets/${datasetId}/retrieve`, { query: "boundary shells flow" });
    expect(all.body.records).toHaveLength(4);
    const scores = (all.body.records as Record_[]).map((record) => record.score);
    const threshold = (scores[1]! + scores[2]!) / 2;
    const kept = await send("POST", `/datasets/${datasetId}/retrieve`, {
      query: "boundary shells flow",
      retrieval_model: { ...KEYWORD, score_threshold_enabled: true, score_threshold: threshold },
    });
    expect((kept.body.records as Record_[]).map((record) => record.score)).toEqual(scores.slice(0, 2));
  });

  it("shows what is committed at once and never what is disabled, archived, deleted or another dataset's", async () => {
    const mine = await aKnowledgeBase();
    const theirs = await aKnowledgeBase("Shells of another workspace entirely.");
    const { send, base, datasetId, documentId } = mine;
    const shells = async () =>
      (
        (await send("POST", `/datasets/${datasetId}/retrieve`, { query: "shells", retrieval_model: KEYWORD }))
          .body.records as Record_[]
      ).map((record) => record.segment.content);
    expect(await shells()).toEqual([PARAGRAPHS[4], PARAGRAPHS[2]]);
    const chunks = (await send("GET", base)).body.data as { id: string }[];
    await send("POST", `${base}/${chunks[4]!.id}`, { segment: { enabled: false } });
    expect(await shells()).toEqual([PARAGRAPHS[2]]);
    const added = await send("POST", base, { segments: [{ content: "New shells, added by hand." }] });
    expect(await shells()).toEqual(["New shells, added by hand.", PARAGRAPHS[2]]);
    await send("DELETE", `${base}/${added.body.data[0].id}`);
    expect(await shells()).toEqual([PARAGRAPHS[2]]);
    await send("PATCH", `/datasets/${datasetId}/documents/status/disable`, { document_ids: [documentId] });
    expect(await shells()).toEqual([]);
    await send("PATCH", `/datasets/${datasetId}/documents/status/enable`, { document_ids: [documentId] });
    expect(await shells()).toEqual([PARAGRAPHS[2]]);
    await send("PATCH", `/datasets/${datasetId}/documents/status/archive`, { document_ids: [documentId] });
    expect(await shells()).toEqual([]);
    // Another workspace's key finds no dataset; its own dataset holds only its own chunks.
    expect(
      (await theirs.send("POST", `/datasets/${datasetId}/retrieve`, { query: "shells" })).body,
    ).toMatchObject({
      status: 404,
      message: "Dataset not found.",
    });
    const own = await theirs.send("POST", `/datasets/${theirs.datasetId}/retrieve`, { query: "shells" });
    expect(own.body.records.map((record: Record_) => record.segment.content)).toEqual([
      "Shells of another workspace entirely.",
    ]);
  });

  it("finds a replaced document's new text only, and a deleted document's nothing", async () => {
    const { send, datasetId, documentId } = await aKnowledgeBase("Old text about shells.");
    const search = async (query: string) =>
      ((await send("POST", `/datasets/${datasetId}/retrieve`, { query })).body.records as Record_[]).map(
        (record) => record.segment.content,
      );
    expect(await search("shells")).toEqual(["Old text about shells."]);
    await send("POST", `/datasets/${datasetId}/documents/${documentId}/update-by-text`, {
      name: "chunks.txt",
      text: "New text about wings.",
    });
    await eventually(async () => (await search("wings")).length === 1, 20_000);
    expect(await search("shells")).toEqual([]);
    await send("DELETE", `/datasets/${datasetId}/documents/${documentId}`);
    expect(await search("wings")).toEqual([]);
  });

  it("answers a parent-child document's parents with their matching child chunks, best first", async () => {
    const { send, datasetId } = await aKnowledgeBase(
      "Wing flutter. Flutter of flutter wings. Panel buckling.\n\nShell buckling.",
      HIERARCHICAL,
      "hierarchical_model",
    );
    const found = await send("POST", `/datasets/${datasetId}/retrieve`, { query: "flutter" });
    const [record] = found.body.records as Record_[];
    expect(found.body.records).toHaveLength(1);
    expect(record!.child_chunks.map((child) => child.content)).toEqual([
      "Flutter of flutter wings",
      "Wing flutter",
    ]);
    expect(record!.score).toBe(record!.child_chunks[0]!.score);
    expect(record!.child_chunks[0]!.score).toBeGreaterThan(record!.child_chunks[1]!.score);
  });

  it("refuses what needs a model, and bad queries, with clear 400s; searches any text as text", async () => {
    const { send, datasetId } = await aKnowledgeBase();
    const path = `/datasets/${datasetId}/retrieve`;
    for (const retrieval_model of [
      { ...KEYWORD, search_method: "semantic_search" },
      { ...KEYWORD, search_method: "hybrid_search" },
      { ...KEYWORD, reranking_enable: true },
    ])
      expect((await send("POST", path, { query: "shells", retrieval_model })).body).toMatchObject({
        status: 400,
        code: "provider_not_initialize",
      });
    const refusals: [unknown, string][] = [
      [{}, "Query or attachment_ids is required"],
      [{ query: "" }, "Query or attachment_ids is required"],
      [{ query: "👋".repeat(251) }, "Query cannot exceed 250 characters"],
      [{ query: 5 }, "query: must be a string."],
      [{ query: "a\u0000" }, "query: must not contain NUL characters or unpaired surrogates."],
      [{ query: "shells", attachment_ids: ["x"] }, "attachment_ids: image queries are not supported here."],
    ];
    for (const [body, message] of refusals)
      expect((await send("POST", path, body)).body, message).toEqual({
        status: 400,
        code: "invalid_param",
        message,
      });
    for (const top_k of [0, 101, 2.5])
      expect(
        (await send("POST", path, { query: "shells", retrieval_model: { ...KEYWORD, top_k } })).body,
      ).toMatchObject({
        status: 400,
        code: "invalid_param",
      });
    expect((await send("POST", path, { query: "👋".repeat(250) })).body.records).toEqual([]);
    for (const query of [
      "the of and",
      "?!…",
      '"shells" OR NEAR(*)',
      "shells' --; drop table chunks",
      "%_\\",
    ]) {
      const answer = await send("POST", path, { query });
      expect(answer.status, query).toBe(200);
    }
    expect((await send("POST", path, { query: '"shells" OR NEAR(*)' })).body.records).toHaveLength(2);
    expect((await send("POST", path, { query: "the of and" })).body.records).toEqual([]);
  });

  it("narrows the search by metadata in the same query: every operator family, and/or, built-in fields", async () => {
    const { send, datasetId, documentId } = await aKnowledgeBase("Shells of the first document.");
    const second = await send("POST", `/datasets/${datasetId}/document/create-by-text`, {
      name: "second.txt",
      text: "Shells of the second document.",
      process_rule: BY_PARAGRAPH,
    });
    const secondId = second.body.document.id as string;
    await eventually(async () => {
      const detail = await send("GET", `/datasets/${datasetId}/documents/${secondId}`);
      return detail.body.indexing_status === "completed";
    }, 20_000);
    const author = (await send("POST", `/datasets/${datasetId}/metadata`, { type: "string", name: "author" }))
      .body;
    const pages = (await send("POST", `/datasets/${datasetId}/metadata`, { type: "number", name: "pages" }))
      .body;
    const written = await send("POST", `/datasets/${datasetId}/documents/metadata`, {
      operation_data: [
        {
          document_id: documentId,
          metadata_list: [
            { id: author.id, name: "author", value: "Ada Lovelace" },
            { id: pages.id, name: "pages", value: 12 },
          ],
        },
        { document_id: secondId, metadata_list: [{ id: pages.id, name: "pages", value: 250 }] },
      ],
    });
    expect(written.status).toBe(200);
    const names = async (metadata_filtering_conditions: unknown) => {
      const found = await send("POST", `/datasets/${datasetId}/retrieve`, {
        query: "shells",
        retrieval_model: { ...KEYWORD, metadata_filtering_conditions },
      });
      expect(found.status, JSON.stringify(found.body)).toBe(200);
      return (found.body.records as Record_[]).map((record) => record.segment.content);
    };
    const FIRST = "Shells of the first document.";
    const SECOND = "Shells of the second document.";
    const condition = (name: string, comparison_operator: string, value?: unknown) => ({
      name,
      comparison_operator,
      value,
    });
    expect(await names({ conditions: [condition("author", "contains", "Love")] })).toEqual([FIRST]);
    expect(await names({ conditions: [condition("author", "empty")] })).toEqual([SECOND]);
    expect(await names({ conditions: [condition("pages", ">", 100)] })).toEqual([SECOND]);
    expect((await names({ conditions: [condition("pages", "in", "12, 250")] })).sort()).toEqual([
      FIRST,
      SECOND,
    ]);
    expect(await names({ conditions: [condition("pages", "in", [])] })).toEqual([]);
    expect(
      await names({
        logical_operator: "or",
        conditions: [condition("author", "is", "Ada Lovelace"), condition("pages", "≥", 250)],
      }),
    ).toHaveLength(2);
    expect(
      await names({ conditions: [condition("author", "is", "Ada Lovelace"), condition("pages", "≥", 250)] }),
    ).toEqual([]);
    // Built-in fields filter only while the dataset shows them.
    expect(await names({ conditions: [condition("document_name", "is", "second.txt")] })).toEqual([]);
    await send("POST", `/datasets/${datasetId}/metadata/built-in/enable`);
    expect(await names({ conditions: [condition("document_name", "is", "second.txt")] })).toEqual([SECOND]);
    const first = await send("POST", `/datasets/${datasetId}/retrieve`, {
      query: "shells",
      retrieval_model: {
        ...KEYWORD,
        metadata_filtering_conditions: { conditions: [condition("pages", "<", 20)] },
      },
    });
    // As Dify writes them into `doc_metadata`: the built-ins beside the fields, dates in UTC.
    const detail = (await send("GET", `/datasets/${datasetId}/documents/${documentId}`)).body;
    const builtIn = (name: string) =>
      (detail.doc_metadata as { name: string; value: unknown }[]).find((entry) => entry.name === name)?.value;
    const utc = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 19).replace("T", " ");
    expect(first.body.records[0].segment.document.doc_metadata).toEqual({
      author: "Ada Lovelace",
      pages: 12,
      document_name: detail.name,
      uploader: builtIn("uploader"),
      upload_date: utc(detail.created_at),
      last_update_date: utc(detail.updated_at),
      source: "file_upload",
    });
    expect(builtIn("uploader")).toEqual(expect.any(String));
    await send("POST", `/datasets/${datasetId}/metadata/built-in/disable`);
    const hidden = await send("POST", `/datasets/${datasetId}/retrieve`, {
      query: "shells",
      retrieval_model: {
        ...KEYWORD,
        metadata_filtering_conditions: { conditions: [condition("pages", "<", 20)] },
      },
    });
    expect(hidden.body.records[0].segment.document.doc_metadata).toEqual({
      author: "Ada Lovelace",
      pages: 12,
    });

    for (const [conditions, message] of [
      [{ conditions: [condition("pages", ">=", 1)] }, 'unknown comparison operator ">=".'],
      [{ conditions: [condition("pages", ">", "many")] }, '">" needs a number.'],
      [
        { conditions: [condition("pages", "before", "soon")] },
        '"before" needs Unix seconds or a "YYYY-MM-DD HH:MM:SS" time.',
      ],
      [
        { conditions: Array.from({ length: 10_000 }, () => condition("pages", "=", 1)) },
        "at most 100 conditions.",
      ],
    ] as const) {
      const refused = await send("POST", `/datasets/${datasetId}/retrieve`, {
        query: "shells",
        retrieval_model: { ...KEYWORD, metadata_filtering_conditions: conditions },
      });
      expect(refused.body).toEqual({
        status: 400,
        code: "invalid_param",
        message: `metadata_filtering_conditions: ${message}`,
      });
    }
  });
});
