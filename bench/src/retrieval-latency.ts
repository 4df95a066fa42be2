import { execSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Retrieve } from "@service-api/application";
import { analyze, type RetrievalModel } from "@service-api/domain";
import type { Store } from "@service-api/ports";
import { aDataset, aDocument, aMetadataField, aSegment } from "@service-api/ports/testing";
import { openStore } from "@service-api/stores";
import autocannon from "autocannon";
import pg from "pg";
import { freshDatabase } from "./ingest.js";
import { startOurServer } from "./servers.js";

/*
 * Retrieval at scale: one dataset grown from 10k to 1M segments (and, beside it, other datasets of
 * their own), queried with 1–5 terms, top_k 10, through /retrieve at 16 connections; beside the
 * floor, the same use case called in one process (the same SQL, no HTTP). Segments are words
 * drawn from a Zipf vocabulary, so the query terms' postings range from a few to many thousand.
 */

const RESULTS = fileURLToPath(new URL("../results/", import.meta.url));
const log = (line: string) => process.stderr.write(`${line}\n`);
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/** The dataset's sizes measured, in segments, smallest first; PostgreSQL's may be set apart. */
const SIZES = (process.env.BENCH_RETRIEVAL_SIZES ?? "10000,100000,1000000").split(",").map(Number);
const POSTGRES_SIZES = process.env.BENCH_RETRIEVAL_POSTGRES_SIZES?.split(",").map(Number) ?? SIZES;
/** Datasets beside the measured one at its largest, each of this many segments (`0` for none). */
const NEIGHBORS = Number(process.env.BENCH_RETRIEVAL_NEIGHBORS ?? 10);
const POSTGRES_NEIGHBORS = Number(process.env.BENCH_RETRIEVAL_POSTGRES_NEIGHBORS ?? NEIGHBORS);
const NEIGHBOR_SEGMENTS = Number(process.env.BENCH_RETRIEVAL_NEIGHBOR_SEGMENTS ?? 100_000);
const SECONDS = Number(process.env.BENCH_DURATION ?? 5);
const SEGMENTS_PER_DOCUMENT = 1000;
const WORDS_PER_SEGMENT = 30;
const VOCABULARY = 30_000;
/** The share of documents holding the filtered field's value. */
const FILTERED_SHARE = 0.01;

/** A pseudo-word per rank, of consonant-vowel syllables: distinct, never an English stop word. */
function wordOf(rank: number): string {
  const consonants = "bdfgklmnprstvz";
  const vowels = "aiou";
  let word = "";
  for (let value = rank + 1; value > 0; value = Math.floor(value / 56))
    word += consonants[value % 14]! + vowels[Math.floor(value / 14) % 4]!;
  return `${word}x`;
}

/** Random numbers in [0, 1), the same for the same seed. */
function sequence(seed: number) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4_294_967_296;
  };
}

/** Draws ranks from Zipf's law over the vocabulary (exponent 1). */
function zipf(random: () => number) {
  const cumulative: number[] = [];
  let total = 0;
  for (let rank = 1; rank <= VOCABULARY; rank++) {
    total += 1 / rank;
    cumulative.push(total);
  }
  return () => {
    const target = random() * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle]! < target) low = middle + 1;
      else high = middle;
    }
    return low;
  };
}

const WORDS = Array.from({ length: VOCABULARY }, (_, rank) => wordOf(rank));

/** Adds documents of generated segments to the dataset until it holds `segments`. */
async function growDataset(
  store: Store,
  datasetId: string,
  from: number,
  segments: number,
  filter: { fieldId: string },
) {
  const { documents, segments: segmentRepository, metadata } = store.repositories;
  const draw = zipf(sequence(from + 7));
  for (let first = from; first < segments; first += SEGMENTS_PER_DOCUMENT) {
    const index = first / SEGMENTS_PER_DOCUMENT;
    const document = aDocument(datasetId, { position: index + 1, name: `generated-${index}.txt` });
    await documents.save(document);
    const count = Math.min(SEGMENTS_PER_DOCUMENT, segments - first);
    const rows = Array.from({ length: count }, (_, position) => {
      const words = Array.from({ length: WORDS_PER_SEGMENT }, () => WORDS[draw()]!);
      const content = `${words.join(" ")}.`;
      return aSegment(document.id, position + 1, { content, wordCount: content.length, keywords: [] });
    });
    await segmentRepository.replaceForImport(document.id, rows, []);
    // Every hundredth document holds the filtered value: 1% of the segments.
    if (index % Math.round(1 / FILTERED_SHARE) === 0)
      await metadata.setValue(document.id, filter.fieldId, "gold");
    if (index % 50 === 49) log(`  ${first + count} segments`);
  }
}

/** Queries of 1–5 terms, drawn as the segments' words are but from the vocabulary's middle ranks. */
function queriesOf(count: number): string[] {
  const random = sequence(99);
  return Array.from({ length: count }, () => {
    const terms = 1 + Math.floor(random() * 5);
    return Array.from({ length: terms }, () => WORDS[50 + Math.floor(random() ** 2 * 5000)]!).join(" ");
  });
}

const KEYWORD: RetrievalModel = {
  search_method: "keyword_search",
  reranking_enable: false,
  reranking_mode: null,
  reranking_model: { reranking_provider_name: "", reranking_model_name: "" },
  weights: null,
  top_k: 10,
  score_threshold_enabled: false,
  score_threshold: null,
} as RetrievalModel;
const FILTER = {
  logical_operator: "and",
  conditions: [{ name: "tier", comparison_operator: "is", value: "gold" }],
};

interface Latency {
  p50: number;
  p99: number;
  per_s: number;
}

/** The use case called in this process, one query after another for `seconds`: the floor. */
async function floorLatency(
  store: Store,
  workspaceId: string,
  datasetId: string,
  queries: string[],
  filtered: boolean,
) {
  const retrieve = new Retrieve(store);
  const model = filtered ? { ...KEYWORD, metadata_filtering_conditions: FILTER } : KEYWORD;
  const times: number[] = [];
  const deadline = performance.now() + SECONDS * 1000;
  for (let index = 0; performance.now() < deadline; index++) {
    const started = performance.now();
    await retrieve.execute({
      workspaceId,
      datasetId,
      query: queries[index % queries.length],
      retrievalModel: model as RetrievalModel,
    });
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (share: number) =>
    round(times[Math.min(times.length - 1, Math.floor(times.length * share))]!, 3);
  return { p50: at(0.5), p99: at(0.99), per_s: round(times.length / SECONDS, 1) };
}

/** /retrieve at 16 connections for `seconds`, cycling through the queries. */
async function httpLatency(
  url: string,
  key: string,
  datasetId: string,
  queries: string[],
  filtered: boolean,
): Promise<Latency> {
  const model = filtered ? { ...KEYWORD, metadata_filtering_conditions: FILTER } : KEYWORD;
  const result = await autocannon({
    url: `${url}/v1/datasets/${datasetId}/retrieve`,
    connections: 16,
    duration: SECONDS,
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    requests: queries.map((query) => ({ body: JSON.stringify({ query, retrieval_model: model }) })),
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`/retrieve failed ${result.non2xx + result.errors} times`);
  return { p50: result.latency.p50, p99: result.latency.p99, per_s: round(result.requests.average, 1) };
}

/** The postings the queries read, on average: the sum of their terms' document frequencies. */
async function postingsRead(store: Store, datasetId: string, queries: string[]): Promise<number> {
  let total = 0;
  for (const query of queries) {
    const terms = [...new Set(analyze(query))];
    const stats = await store.repositories.search.statistics(datasetId, "content_and_keywords", terms);
    total += terms.reduce((sum, term) => sum + (stats.documentFrequencies.get(term) ?? 0), 0);
  }
  return Math.round(total / queries.length);
}

interface Row {
  store: string;
  segments: number;
  /** Segments in the other datasets beside it. */
  beside: number;
  postings_read: number;
  floor: Latency;
  http: Latency;
  http_filtered: Latency;
  throughput_ratio: number;
}

/** A fresh database of the store: a SQLite file, or a PostgreSQL database of its own. */
async function freshStoreDatabase(postgresUrl?: string) {
  const sqlite = await freshDatabase();
  if (!postgresUrl)
    return { ...sqlite, drop: async () => rmSync(sqlite.directory, { recursive: true, force: true }) };
  rmSync(sqlite.directory, { recursive: true, force: true });
  const name = `service_api_retrieval_${process.pid}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name}`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  const database = await freshDatabase(url.toString());
  return {
    ...database,
    drop: async () => {
      rmSync(database.directory, { recursive: true, force: true });
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** `vacuum analyze` of the PostgreSQL database at `url`. */
async function vacuumAnalyze(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("vacuum analyze");
  } finally {
    await client.end();
  }
}

let port = 6700;
async function measureStore(label: string, postgresUrl?: string): Promise<Row[]> {
  const sizes = postgresUrl ? POSTGRES_SIZES : SIZES;
  const neighbors = postgresUrl ? POSTGRES_NEIGHBORS : NEIGHBORS;
  const database = await freshStoreDatabase(postgresUrl);
  const rows: Row[] = [];
  try {
    const store = await openStore({ databaseUrl: database.databaseUrl });
    const { workspaceId } = database;
    const field = aMetadataField(database.datasetId, { name: "tier", type: "string" });
    await store.repositories.metadata.saveField(field);
    const queries = queriesOf(200);
    let held = 0;
    let neighborsGrown = false;
    for (const size of sizes) {
      log(`${label}: growing the dataset to ${size} segments`);
      await growDataset(store, database.datasetId, held, size, { fieldId: field.id });
      held = size;
      if (!neighborsGrown && size === sizes.at(-1)) {
        for (let neighbor = 0; neighbor < neighbors; neighbor++) {
          log(`${label}: dataset ${neighbor + 1} of ${neighbors} beside it, ${NEIGHBOR_SEGMENTS} segments`);
          const beside = aDataset(workspaceId, { name: `Beside ${neighbor}` });
          await store.repositories.datasets.save(beside);
          const besideField = aMetadataField(beside.id, { name: "tier", type: "string" });
          await store.repositories.metadata.saveField(besideField);
          await growDataset(store, beside.id, 0, NEIGHBOR_SEGMENTS, { fieldId: besideField.id });
        }
        neighborsGrown = true;
      }
      // As autovacuum would have by the time a grown dataset is searched: the planner's statistics
      // of its tables (measured at once, PostgreSQL planned with the empty tables' and took seconds).
      if (postgresUrl) await vacuumAnalyze(database.databaseUrl);
      const floor = await floorLatency(store, workspaceId, database.datasetId, queries, false);
      const server = await startOurServer(database.databaseUrl, port++, 1, 0, [], {
        INDEXING_CONCURRENCY: "0",
      });
      try {
        const http = await httpLatency(server.url, database.key, database.datasetId, queries, false);
        const httpFiltered = await httpLatency(server.url, database.key, database.datasetId, queries, true);
        rows.push({
          store: label,
          segments: size,
          beside: neighborsGrown ? neighbors * NEIGHBOR_SEGMENTS : 0,
          postings_read: await postingsRead(store, database.datasetId, queries),
          floor,
          http,
          http_filtered: httpFiltered,
          throughput_ratio: round(http.per_s / floor.per_s),
        });
        log(JSON.stringify(rows.at(-1)));
      } finally {
        await server.stop();
      }
    }
    await store.close();
  } finally {
    await database.drop();
  }
  return rows;
}

/** The retrieval latency benchmark: results as JSON and markdown in bench/results/. */
export async function runRetrievalLatency(postgresUrl?: string): Promise<string> {
  const rows = await measureStore("SQLite");
  if (postgresUrl) rows.push(...(await measureStore("PostgreSQL", postgresUrl)));
  const result = {
    commit: execSync("git rev-parse --short HEAD").toString().trim(),
    date: new Date().toISOString().slice(0, 10),
    rows,
  };
  const markdown = latencyMarkdown(result);
  mkdirSync(RESULTS, { recursive: true });
  const name = `${result.date}-${result.commit}-retrieval-latency`;
  writeFileSync(join(RESULTS, `${name}.json`), `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(join(RESULTS, `${name}.md`), markdown);
  writeFileSync(join(RESULTS, "retrieval-latency-latest.md"), markdown);
  return markdown;
}

export function latencyMarkdown(result: { commit: string; date: string; rows: Row[] }): string {
  const table = [
    "| store | segments | beside | postings read | floor p50 / p99 ms | floor /s | HTTP p50 / p99 ms | HTTP /s | HTTP ÷ floor | 1% filter p50 / p99 ms | filter /s |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...result.rows.map(
      (row) =>
        `| ${row.store} | ${row.segments} | ${row.beside} | ${row.postings_read} | ${row.floor.p50} / ${row.floor.p99} | ${row.floor.per_s} | ${row.http.p50} / ${row.http.p99} | ${row.http.per_s} | ${row.throughput_ratio} | ${row.http_filtered.p50} / ${row.http_filtered.p99} | ${row.http_filtered.per_s} |`,
    ),
  ];
  const growth = (store: string) => {
    const own = result.rows.filter((row) => row.store === store);
    const [first, last] = [own[0], own.at(-1)];
    if (!first || !last || first === last) return [];
    return [
      `- ${store}, ${first.segments} → ${last.segments} segments: HTTP throughput ÷ ${round(first.http.per_s / last.http.per_s)}, the postings read × ${round(last.postings_read / first.postings_read)}.`,
    ];
  };
  const sizeOf = (store: string, segments: number) =>
    result.rows.find((row) => row.store === store && row.segments === segments);
  const postgres = result.rows
    .filter((row) => row.store === "PostgreSQL" && sizeOf("SQLite", row.segments))
    .at(-1);
  const sqlite = postgres && sizeOf("SQLite", postgres.segments);
  return [
    `# Retrieval latency, ${result.date} (${result.commit})`,
    "",
    "`POST /datasets/{id}/retrieve`, keyword search, top_k 10, queries of 1–5 terms over segments of",
    "30 words drawn from a 30,000-word Zipf vocabulary; HTTP at 16 connections (one server process),",
    "beside the floor: the same use case called in one process, one query at a time (the same SQL,",
    "no HTTP). At the largest size, other datasets of the same workspace hold more segments beside it",
    "(`beside`). A 1% filter: `tier is gold`, a field every hundredth document holds.",
    "",
    ...table,
    "",
    ...growth("SQLite"),
    ...growth("PostgreSQL"),
    ...(sqlite && postgres
      ? [
          `- PostgreSQL ÷ SQLite throughput at ${postgres.segments} segments: ${round(postgres.http.per_s / sqlite.http.per_s)} (aim ≥ 0.5).`,
        ]
      : []),
    "",
  ].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runRetrievalLatency(process.env.BENCH_POSTGRES_URL).then(
    (markdown) => process.stdout.write(markdown),
    (error: unknown) => {
      log(`bench failed: ${error instanceof Error ? error.stack : String(error)}`);
      process.exitCode = 1;
    },
  );
}
