import { execSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Segment } from "@service-api/domain";
import type { Store } from "@service-api/ports";
import { aChildChunk, aDocument, aSegment } from "@service-api/ports/testing";
import { openStore } from "@service-api/stores";
import autocannon from "autocannon";
import { freshDatabase } from "./ingest.js";
import { startOurServer } from "./servers.js";

/*
 * The chunks API at scale: a parent-child document of 100k segments in a dataset of 1M, beside
 * one of 100 segments in the same dataset; each operation through HTTP at 16 connections on both,
 * the large one's throughput over the small one's (aim ≥ 0.9), with no error.
 */

const RESULTS = fileURLToPath(new URL("../results/", import.meta.url));
const log = (line: string) => process.stderr.write(`${line}\n`);
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

const LARGE = Number(process.env.BENCH_CHUNKS_DOCUMENT ?? 100_000);
const SMALL = 100;
const DATASET = Number(process.env.BENCH_CHUNKS_DATASET ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_DURATION ?? 5);
const FILLER_PER_DOCUMENT = 10_000;
const PAGE = 20;
/** The word a keyword filter looks for: one segment in a thousand holds it. */
const RARE = "quokka";

/** A parent segment's text: a few words, the rare one in every thousandth. */
const contentOf = (position: number) =>
  `Parent ${position} of the manual, ${position % 1000 === 7 ? RARE : "wombat"} section ${position % 97}.`;

/** A parent-child document of `count` segments, each with one child chunk. */
async function addDocument(store: Store, datasetId: string, position: number, count: number) {
  const document = aDocument(datasetId, {
    position,
    name: `manual-${count}.txt`,
    docForm: "hierarchical_model",
  });
  await store.repositories.documents.save(document);
  const segments: Segment[] = Array.from({ length: count }, (_, index) => {
    const content = contentOf(index + 1);
    return aSegment(document.id, index + 1, { content, wordCount: content.length, keywords: [] });
  });
  const children = segments.map((segment) =>
    aChildChunk(segment, 1, { content: segment.content, wordCount: segment.content.length }),
  );
  await store.repositories.segments.replaceForImport(document.id, segments, children);
  return { documentId: document.id, segmentIds: segments.map((segment) => segment.id) };
}

/** Plain documents of short segments until the dataset holds `total` segments with those given. */
async function addFiller(store: Store, datasetId: string, held: number, total: number) {
  for (let position = 10, count = held; count < total; position++) {
    const document = aDocument(datasetId, { position, name: `filler-${position}.txt` });
    await store.repositories.documents.save(document);
    const size = Math.min(FILLER_PER_DOCUMENT, total - count);
    const segments = Array.from({ length: size }, (_, index) =>
      aSegment(document.id, index + 1, { content: `Filler ${index} wombat.`, wordCount: 20, keywords: [] }),
    );
    await store.repositories.segments.replaceForImport(document.id, segments, []);
    count += size;
    log(`  ${count} segments in the dataset`);
  }
}

interface Measured {
  per_s: number;
  p50: number;
  p99: number;
  errors: number;
}

/** Requests cycled at 16 connections for `SECONDS`. */
async function load(url: string, key: string, requests: autocannon.Request[]): Promise<Measured> {
  const result = await autocannon({
    url,
    connections: 16,
    duration: SECONDS,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    requests,
  });
  return {
    per_s: round(result.requests.average, 1),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors,
  };
}

/** The operations measured on one document: name, then its requests. */
function operationsOn(datasetId: string, document: { documentId: string; segmentIds: string[] }) {
  const base = `/v1/datasets/${datasetId}/documents/${document.documentId}/segments`;
  const lastPage = Math.ceil(document.segmentIds.length / PAGE);
  // Spread over the document: 200 segments from its first to its last.
  const spread = Array.from(
    { length: 200 },
    (_, index) => document.segmentIds[Math.floor((index * (document.segmentIds.length - 1)) / 199)]!,
  );
  return {
    "list, first page": [{ method: "GET" as const, path: `${base}?page=1&limit=${PAGE}` }],
    "list, last page": [{ method: "GET" as const, path: `${base}?page=${lastPage}&limit=${PAGE}` }],
    "list, keyword filter": [{ method: "GET" as const, path: `${base}?keyword=${RARE}&limit=${PAGE}` }],
    "segment update": spread.map((id, index) => ({
      method: "POST" as const,
      path: `${base}/${id}`,
      body: JSON.stringify({ segment: { content: `Edited parent ${index}, wombat section.` } }),
    })),
    "child-chunk create": spread.map((id, index) => ({
      method: "POST" as const,
      path: `${base}/${id}/child_chunks`,
      body: JSON.stringify({ content: `A child written by hand, ${index}.` }),
    })),
  };
}

interface Row {
  operation: string;
  small: Measured;
  large: Measured;
  ratio: number;
}

/** The chunks benchmark on SQLite: results as JSON and markdown in bench/results/. */
export async function runChunksAtScale(): Promise<string> {
  const database = await freshDatabase();
  const rows: Row[] = [];
  try {
    const store = await openStore({ databaseUrl: database.databaseUrl });
    log(`Chunks: a document of ${SMALL} segments, one of ${LARGE}, filler to ${DATASET}`);
    const small = await addDocument(store, database.datasetId, 1, SMALL);
    const large = await addDocument(store, database.datasetId, 2, LARGE);
    await addFiller(store, database.datasetId, SMALL + LARGE, DATASET);
    await store.close();
    const server = await startOurServer(database.databaseUrl, 6900, 1, 0, [], { INDEXING_CONCURRENCY: "0" });
    try {
      const onSmall = operationsOn(database.datasetId, small);
      const onLarge = operationsOn(database.datasetId, large);
      for (const operation of Object.keys(onSmall) as (keyof typeof onSmall)[]) {
        // Taken in turn, so that a slow spell of the machine hits both alike.
        const smallRun = await load(server.url, database.key, onSmall[operation]);
        const largeRun = await load(server.url, database.key, onLarge[operation]);
        rows.push({
          operation,
          small: smallRun,
          large: largeRun,
          ratio: round(largeRun.per_s / smallRun.per_s),
        });
        log(JSON.stringify(rows.at(-1)));
      }
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(database.directory, { recursive: true, force: true });
  }
  const result = {
    commit: execSync("git rev-parse --short HEAD").toString().trim(),
    date: new Date().toISOString().slice(0, 10),
    large: LARGE,
    dataset: DATASET,
    rows,
  };
  const markdown = [
    `# Chunks at scale, ${result.date} (${result.commit})`,
    "",
    `SQLite, one server process, 16 connections, ${SECONDS} s each: a parent-child document of ${LARGE}`,
    `segments (one child chunk each) and one of ${SMALL}, in a dataset of ${DATASET} segments. Pages of`,
    `${PAGE}; the keyword filter matches one segment in a thousand; updates and child-chunk creates spread`,
    "over 200 segments from the document's first to its last. Ratio: the large document's throughput",
    "over the small one's (aim ≥ 0.9).",
    "",
    "| operation | small /s | small p50 / p99 ms | large /s | large p50 / p99 ms | ratio | errors |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...rows.map(
      (row) =>
        `| ${row.operation} | ${row.small.per_s} | ${row.small.p50} / ${row.small.p99} | ${row.large.per_s} | ${row.large.p50} / ${row.large.p99} | ${row.ratio} | ${row.small.errors + row.large.errors} |`,
    ),
    "",
  ].join("\n");
  mkdirSync(RESULTS, { recursive: true });
  const name = `${result.date}-${result.commit}-chunks-at-scale`;
  writeFileSync(join(RESULTS, `${name}.json`), `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(join(RESULTS, `${name}.md`), markdown);
  writeFileSync(join(RESULTS, "chunks-at-scale-latest.md"), markdown);
  return markdown;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runChunksAtScale().then(
    (markdown) => process.stdout.write(markdown),
    (error: unknown) => {
      log(`chunks bench failed: ${error instanceof Error ? error.stack : String(error)}`);
      process.exitCode = 1;
    },
  );
}
