import { execSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  analyze,
  BM25_B,
  BM25_K1,
  bm25Weights,
  countTerms,
  type TermCounts,
  termScore,
} from "@service-api/domain";
import { type Api, freshDatabase, inParallel, send } from "./ingest.js";
import { startOurServer } from "./servers.js";

/*
 * Retrieval quality on Cranfield (1,400 abstracts, 225 queries, graded qrels): the abstracts
 * ingested through the API as a user would, the queries through /retrieve, nDCG@10 and recall@100
 * as trec_eval computes them; beside a reference BM25 in plain TypeScript over the same chunks
 * (which ours should equal) and over whole abstracts (what chunking loses).
 */

const RESULTS = fileURLToPath(new URL("../results/", import.meta.url));
const CRANFIELD = process.env.BENCH_CRANFIELD_DIR ?? "/work/shared/data/cranfield";
const log = (line: string) => process.stderr.write(`${line}\n`);
const round = (value: number, digits = 4) => Math.round(value * 10 ** digits) / 10 ** digits;
const TOP_K = 100;
/** The longest query /retrieve takes, in code points (Dify's `hit_testing_args_check`). */
const QUERY_MAX_LENGTH = 250;
/** Create-by-text requests in flight at once. */
const CONCURRENCY = 4;

interface CorpusDocument {
  id: string;
  title: string;
  text: string;
}
interface Query {
  id: string;
  text: string;
}

/** A query as /retrieve takes it: cut at the last space within 250 code points when longer. */
function sendable(query: Query): Query {
  const points = [...query.text];
  if (points.length <= QUERY_MAX_LENGTH) return query;
  const cut = points.slice(0, QUERY_MAX_LENGTH + 1).join("");
  return { id: query.id, text: cut.slice(0, cut.lastIndexOf(" ")).trimEnd() };
}
/** Of each query, each judged document's gain (1–4). */
type Qrels = Map<string, Map<string, number>>;
/** Of each query, its documents best first. */
type Run = Map<string, string[]>;

const jsonLines = <T>(file: string): T[] =>
  readFileSync(join(CRANFIELD, file), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as T);

function readQrels(): Qrels {
  const qrels: Qrels = new Map();
  for (const line of readFileSync(join(CRANFIELD, "qrels.tsv"), "utf8").split("\n").slice(1)) {
    if (line.trim() === "") continue;
    const [query, document, gain] = line.split("\t");
    if (!qrels.has(query!)) qrels.set(query!, new Map());
    qrels.get(query!)!.set(document!, Number(gain));
  }
  return qrels;
}

/** trec_eval's order: score descending, ties by document id descending as strings. */
const trecOrder = (a: { id: string; score: number }, b: { id: string; score: number }) =>
  b.score - a.score || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** A run file (`query-id corpus-id rank score`), each query's list in trec_eval's order (it ignores ranks). */
function readRunFile(file: string): Run {
  const lists = new Map<string, { id: string; score: number }[]>();
  for (const line of readFileSync(join(CRANFIELD, file), "utf8").split("\n").slice(1)) {
    if (line.trim() === "") continue;
    const [query, document, , score] = line.split("\t");
    if (!lists.has(query!)) lists.set(query!, []);
    lists.get(query!)!.push({ id: document!, score: Number(score) });
  }
  return new Map([...lists].map(([query, list]) => [query, list.sort(trecOrder).map(({ id }) => id)]));
}

/** nDCG@10 (linear gains, log2(i + 1) discount, ideal from the qrels) and recall@100 (gain > 0) of one list. */
function scoreQuery(ranked: readonly string[], judged: ReadonlyMap<string, number>) {
  let dcg = 0;
  for (const [index, id] of ranked.slice(0, 10).entries())
    dcg += (judged.get(id) ?? 0) / Math.log2(index + 2);
  const ideal = [...judged.values()]
    .filter((gain) => gain > 0)
    .sort((a, b) => b - a)
    .slice(0, 10)
    .reduce((sum, gain, index) => sum + gain / Math.log2(index + 2), 0);
  const relevant = [...judged.values()].filter((gain) => gain > 0).length;
  const found = ranked.slice(0, 100).filter((id) => (judged.get(id) ?? 0) > 0).length;
  return { ndcg10: ideal > 0 ? dcg / ideal : 0, recall100: relevant > 0 ? found / relevant : 0 };
}

interface Evaluation {
  ndcg10: number;
  recall100: number;
  perQuery: Record<string, { ndcg10: number; recall100: number }>;
}

/** Each metric averaged over every query (a query with no list counts as 0). */
function evaluate(run: Run, qrels: Qrels, queries: readonly Query[]): Evaluation {
  const perQuery: Evaluation["perQuery"] = {};
  for (const { id } of queries) perQuery[id] = scoreQuery(run.get(id) ?? [], qrels.get(id) ?? new Map());
  const mean = (metric: "ndcg10" | "recall100") =>
    Object.values(perQuery).reduce((sum, scores) => sum + scores[metric], 0) / queries.length;
  return { ndcg10: mean("ndcg10"), recall100: mean("recall100"), perQuery };
}

/** The evaluator on reference-run.tsv against reference.json's figures for it, to 4 decimals: throws if they differ. */
function checkEvaluator(qrels: Qrels, queries: readonly Query[]) {
  const reference = JSON.parse(readFileSync(join(CRANFIELD, "reference.json"), "utf8"));
  const config: string = reference.reference_run.config;
  const expected = reference.results.find((result: { name: string }) => result.name === config);
  if (!expected) throw new Error(`reference.json: no result named ${config}`);
  const got = evaluate(readRunFile(reference.reference_run.file), qrels, queries);
  const problems: string[] = [];
  if (round(got.ndcg10) !== expected["nDCG@10"])
    problems.push(`nDCG@10 ${got.ndcg10} ≠ ${expected["nDCG@10"]}`);
  if (round(got.recall100) !== expected["recall@100"])
    problems.push(`recall@100 ${got.recall100} ≠ ${expected["recall@100"]}`);
  const firstFive = reference.reference_run["per_query_nDCG@10_first5"] as Record<string, number>;
  for (const [query, ndcg] of Object.entries(firstFive))
    if (round(got.perQuery[query]!.ndcg10) !== ndcg)
      problems.push(`query ${query}: nDCG@10 ${got.perQuery[query]!.ndcg10} ≠ ${ndcg}`);
  if (problems.length > 0)
    throw new Error(
      `the evaluator disagrees with reference.json on ${reference.reference_run.file}: ${problems}`,
    );
  log(
    `evaluator: ${config} → nDCG@10 ${round(got.ndcg10)}, recall@100 ${round(got.recall100)}, as reference.json`,
  );
  return {
    run: config,
    k1: expected.k1 as number,
    ndcg10: round(got.ndcg10),
    recall100: round(got.recall100),
    expected_ndcg10: expected["nDCG@10"] as number,
    expected_recall100: expected["recall@100"] as number,
    per_query_first5_match: true,
    bm25s: (reference.results as Record<string, unknown>[]).map((result) => ({
      name: result.name as string,
      k1: result.k1 as number,
      ndcg10: result["nDCG@10"] as number,
      recall100: result["recall@100"] as number,
    })),
    library: reference.library as Record<string, string>,
  };
}

/** A unit BM25 scores: a chunk, or a whole abstract. */
interface Unit {
  id: string;
  corpusId: string;
  position: number;
  terms: TermCounts;
  length: number;
}

const unitOf = (id: string, corpusId: string, position: number, text: string): Unit => {
  const terms = analyze(text);
  return { id, corpusId, position, terms: countTerms(terms), length: terms.length };
};

/**
 * BM25 in plain TypeScript with the domain's analyzer, k1 and b: Lucene's IDF over the units, each
 * unit's score over the query's highest possible one, as /retrieve normalizes.
 */
class ReferenceBm25 {
  readonly #postings = new Map<string, { unit: Unit; tf: number }[]>();
  readonly #frequencies = new Map<string, number>();
  readonly #averageLength: number;

  constructor(readonly units: readonly Unit[]) {
    for (const unit of units)
      for (const [term, tf] of Object.entries(unit.terms)) {
        const list = this.#postings.get(term);
        if (list) list.push({ unit, tf });
        else this.#postings.set(term, [{ unit, tf }]);
      }
    for (const [term, list] of this.#postings) this.#frequencies.set(term, list.length);
    this.#averageLength = units.reduce((sum, unit) => sum + unit.length, 0) / units.length;
  }

  /** The postings a query reads: of each of its terms, the units holding it. */
  postingsOf(query: string): number {
    return Object.keys(countTerms(analyze(query))).reduce(
      (sum, term) => sum + (this.#frequencies.get(term) ?? 0),
      0,
    );
  }

  /** Every unit with a score above 0, unsorted. */
  search(query: string): { unit: Unit; score: number }[] {
    const { weights, maxScore } = bm25Weights(
      countTerms(analyze(query)),
      this.units.length,
      this.#frequencies,
      BM25_K1,
    );
    const scores = new Map<Unit, number>();
    for (const [term, weight] of weights)
      for (const { unit, tf } of this.#postings.get(term)!)
        scores.set(
          unit,
          (scores.get(unit) ?? 0) + termScore(weight, tf, unit.length, this.#averageLength, BM25_K1, BM25_B),
        );
    return [...scores].map(([unit, score]) => ({ unit, score: score / maxScore }));
  }
}

/** The server's order of chunks: score descending, then position, then id. */
const chunkOrder = (a: { unit: Unit; score: number }, b: { unit: Unit; score: number }) =>
  b.score - a.score ||
  a.unit.position - b.unit.position ||
  (a.unit.id < b.unit.id ? -1 : a.unit.id > b.unit.id ? 1 : 0);

/** Documents in the order of their first (best) chunk. */
const documentsOf = (corpusIds: readonly string[]) => [...new Set(corpusIds)];

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

interface RetrievedRecord {
  segment: { id: string; content: string; position: number; document: { id: string; name: string } };
  score: number;
}

/** One document per abstract by text, `CONCURRENCY` at a time; the empty ones as the API answers them. */
async function ingestCorpus(api: Api, corpus: readonly CorpusDocument[]) {
  const documentIds = new Map<string, string>();
  /** The empty abstracts (a title and a text both empty: the text sent is " "), as the API answered. */
  const empty: { id: string; status: number; answer: string }[] = [];
  const started = performance.now();
  await inParallel(corpus, CONCURRENCY, async (document) => {
    const text = `${document.title} ${document.text}`;
    const body = { name: `${document.id}.txt`, text, process_rule: { mode: "automatic" } };
    const response = await fetch(`${api.url}/v1/datasets/${api.datasetId}/document/create-by-text`, {
      method: "POST",
      headers: { authorization: `Bearer ${api.key}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = await response.text();
    if (text.trim() === "") empty.push({ id: document.id, status: response.status, answer });
    else if (response.status !== 200)
      throw new Error(`create-by-text ${document.id} → ${response.status}: ${answer}`);
    if (response.status === 200) documentIds.set(document.id, JSON.parse(answer).document.id);
  });
  const created = (performance.now() - started) / 1000;
  let polls = 0;
  for (;;) {
    polls++;
    const statuses = new Map<string, string>();
    for (let page = 1; ; page++) {
      const found = await send(api, "GET", `/datasets/${api.datasetId}/documents?limit=100&page=${page}`);
      for (const document of found.data) statuses.set(document.id, document.indexing_status);
      if (!found.has_more) break;
    }
    const failed = [...statuses].filter(([, status]) => status === "error");
    if (failed.length > 0) throw new Error(`indexing failed for ${failed.map(([id]) => id)}`);
    if (statuses.size !== documentIds.size)
      throw new Error(`the list holds ${statuses.size} documents, ${documentIds.size} were created`);
    if ([...statuses.values()].every((status) => status === "completed")) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const seconds = (performance.now() - started) / 1000;
  return { documentIds, empty, seconds, createdSeconds: created, polls };
}

/** Every chunk of every document, read back by the segments list, page by page. */
async function readChunks(api: Api, documentIds: ReadonlyMap<string, string>): Promise<Unit[]> {
  const chunks: Unit[] = [];
  await inParallel([...documentIds], CONCURRENCY, async ([corpusId, documentId]) => {
    for (let page = 1; ; page++) {
      const found = await send(
        api,
        "GET",
        `/datasets/${api.datasetId}/documents/${documentId}/segments?limit=100&page=${page}`,
      );
      for (const segment of found.data) {
        if (segment.status !== "completed" || !segment.enabled)
          throw new Error(
            `chunk ${segment.id} of ${corpusId}: ${segment.status}, enabled ${segment.enabled}`,
          );
        chunks.push(unitOf(segment.id, corpusId, segment.position, segment.content));
      }
      if (!found.has_more) break;
    }
  });
  return chunks;
}

/** Every query through /retrieve, one at a time: each answer's records and its latency in ms. */
async function retrieveAll(api: Api, queries: readonly Query[]) {
  const answers = new Map<string, { records: RetrievedRecord[]; ms: number }>();
  for (const query of queries) {
    const started = performance.now();
    const found = await send(api, "POST", `/datasets/${api.datasetId}/retrieve`, {
      query: query.text,
      retrieval_model: {
        search_method: "full_text_search",
        reranking_enable: false,
        top_k: TOP_K,
        score_threshold_enabled: false,
      },
    });
    answers.set(query.id, { records: found.records as RetrievedRecord[], ms: performance.now() - started });
  }
  return answers;
}

const corpusIdOf = (name: string) => name.replace(/\.txt$/, "");

/** Problems with an answer as such: no more than top_k, scores in (0, 1] and not increasing, chunks once. */
function answerProblems(query: string, records: readonly RetrievedRecord[], known: ReadonlySet<string>) {
  const problems: string[] = [];
  if (records.length > TOP_K) problems.push(`query ${query}: ${records.length} records`);
  const seen = new Set<string>();
  for (const [index, record] of records.entries()) {
    if (!(record.score > 0 && record.score <= 1)) problems.push(`query ${query}: score ${record.score}`);
    if (index > 0 && record.score > records[index - 1]!.score)
      problems.push(`query ${query}: record ${index + 1} scores above the one before`);
    if (seen.has(record.segment.id)) problems.push(`query ${query}: chunk ${record.segment.id} twice`);
    seen.add(record.segment.id);
    if (!known.has(corpusIdOf(record.segment.document.name)))
      problems.push(`query ${query}: document ${record.segment.document.name} unknown`);
  }
  return problems;
}

let port = 6500;

/** The retrieval-quality benchmark: results as JSON and markdown in bench/results/. */
export async function runRetrievalQuality(): Promise<string> {
  const corpus = jsonLines<CorpusDocument>("corpus.jsonl");
  const queries = jsonLines<Query>("queries.jsonl");
  const qrels = readQrels();
  const evaluator = checkEvaluator(qrels, queries);

  const database = await freshDatabase();
  const server = await startOurServer(database.databaseUrl, port++);
  const api: Api = { url: server.url, key: database.key, datasetId: database.datasetId };
  try {
    log(`retrieval quality: ingesting ${corpus.length} Cranfield abstracts by text`);
    const ingest = await ingestCorpus(api, corpus);
    log(
      `  ${ingest.documentIds.size} documents completed in ${round(ingest.seconds, 2)} s; the empty ones: ${ingest.empty.map(({ id, status }) => `${id} ${status}`)}`,
    );
    const chunks = await readChunks(api, ingest.documentIds);
    const perDocument = new Map<string, number>();
    for (const chunk of chunks) perDocument.set(chunk.corpusId, (perDocument.get(chunk.corpusId) ?? 0) + 1);
    const split = [...perDocument.values()].filter((count) => count > 1).length;
    log(`  ${chunks.length} chunks; ${split} documents in more than one`);
    const empty = ingest.empty.map(({ id, status, answer }) => ({
      id,
      status,
      ...(status !== 200 && { answer }),
      chunks: perDocument.get(id) ?? 0,
    }));
    const sent = queries.map(sendable);
    const cut = queries.filter((query, index) => sent[index]!.text !== query.text);
    log(`  queries cut to ${QUERY_MAX_LENGTH} characters: ${cut.map(({ id }) => id)}`);

    log("  225 queries through /retrieve, a warm-up pass and a measured one");
    const warmUp = await retrieveAll(api, sent);
    const answers = await retrieveAll(api, sent);
    const unstable = queries.filter(
      ({ id }) =>
        JSON.stringify(warmUp.get(id)!.records.map((r) => [r.segment.id, r.score])) !==
        JSON.stringify(answers.get(id)!.records.map((r) => [r.segment.id, r.score])),
    );

    // Ours, and the reference over the same chunks.
    const known = new Set(ingest.documentIds.keys());
    const sameChunks = new ReferenceBm25(chunks);
    const chunkById = new Map(chunks.map((chunk) => [chunk.id, chunk]));
    const ours: Run = new Map();
    const referenceTop100Chunks: Run = new Map();
    const referenceTop100Documents: Run = new Map();
    const problems: string[] = [];
    let maxScoreDifference = 0;
    let worst = { query: "", chunk: "", ours: 0, reference: 0 };
    const top10Differ: { query: string; ours: string[]; reference: string[] }[] = [];
    let top100Differ = 0;
    let recordCounts = 0;
    for (const query of sent) {
      const { records } = answers.get(query.id)!;
      problems.push(...answerProblems(query.id, records, known));
      recordCounts += records.length;
      ours.set(query.id, documentsOf(records.map((record) => corpusIdOf(record.segment.document.name))));
      const ranked = sameChunks.search(query.text).sort(chunkOrder);
      const referenceScores = new Map(ranked.map(({ unit, score }) => [unit.id, score]));
      referenceTop100Chunks.set(
        query.id,
        documentsOf(ranked.slice(0, TOP_K).map(({ unit }) => unit.corpusId)),
      );
      referenceTop100Documents.set(
        query.id,
        documentsOf(ranked.map(({ unit }) => unit.corpusId)).slice(0, 100),
      );
      for (const record of records) {
        if (!chunkById.has(record.segment.id))
          problems.push(`query ${query.id}: chunk ${record.segment.id} unread`);
        const reference = referenceScores.get(record.segment.id) ?? 0;
        const difference = Math.abs(record.score - reference);
        if (difference > maxScoreDifference) {
          maxScoreDifference = difference;
          worst = { query: query.id, chunk: record.segment.id, ours: record.score, reference };
        }
      }
      const ourTop10 = records.slice(0, 10).map((record) => record.segment.id);
      const referenceTop10 = ranked.slice(0, 10).map(({ unit }) => unit.id);
      if (ourTop10.join() !== referenceTop10.join())
        top10Differ.push({ query: query.id, ours: ourTop10, reference: referenceTop10 });
      const ourTop100 = records.map((record) => record.segment.id).join();
      if (
        ourTop100 !==
        ranked
          .slice(0, TOP_K)
          .map(({ unit }) => unit.id)
          .join()
      )
        top100Differ++;
    }
    if (problems.length > 0) log(`  answers' problems: ${problems.slice(0, 20).join("; ")}`);

    // The reference over whole abstracts, every one of the 1,400 as bm25s indexes them.
    const wholeAbstracts = new ReferenceBm25(
      corpus.map((document) => unitOf(document.id, document.id, 0, `${document.title} ${document.text}`)),
    );
    const abstractsRun = (asked: readonly Query[]): Run =>
      new Map(
        asked.map((query) => [
          query.id,
          wholeAbstracts
            .search(query.text)
            .map(({ unit, score }) => ({ id: unit.corpusId, score }))
            .sort(trecOrder)
            .slice(0, 100)
            .map(({ id }) => id),
        ]),
      );

    const ourEvaluation = evaluate(ours, qrels, queries);
    const evaluations = {
      ours: ourEvaluation,
      reference_same_chunks_top100_chunks: evaluate(referenceTop100Chunks, qrels, queries),
      reference_same_chunks_top100_documents: evaluate(referenceTop100Documents, qrels, queries),
      reference_whole_abstracts_queries_sent: evaluate(abstractsRun(sent), qrels, queries),
      reference_whole_abstracts: evaluate(abstractsRun(queries), qrels, queries),
    };
    const latencies = queries.map(({ id }) => answers.get(id)!.ms).sort((a, b) => a - b);
    const slowest = [...sent]
      .sort((a, b) => answers.get(b.id)!.ms - answers.get(a.id)!.ms)
      .slice(0, 5)
      .map(({ id, text }) => ({
        id,
        ms: round(answers.get(id)!.ms, 1),
        warm_up_ms: round(warmUp.get(id)!.ms, 1),
        terms: Object.keys(countTerms(analyze(text))).length,
        postings: sameChunks.postingsOf(text),
        text,
      }));
    const perQuery = Object.fromEntries(
      sent.map(({ id, text }) => [
        id,
        {
          ...ourEvaluation.perQuery[id]!,
          ms: round(answers.get(id)!.ms, 1),
          warm_up_ms: round(warmUp.get(id)!.ms, 1),
          records: answers.get(id)!.records.length,
          postings: sameChunks.postingsOf(text),
        },
      ]),
    );
    const postings = sent.map(({ text }) => sameChunks.postingsOf(text));
    const documentsReturned = queries.map(({ id }) => ours.get(id)!.length);
    const result = {
      commit: execSync("git rev-parse --short HEAD").toString().trim(),
      date: new Date().toISOString().slice(0, 10),
      settings: {
        search_method: "full_text_search",
        top_k: TOP_K,
        k1: BM25_K1,
        b: BM25_B,
        process_rule: "automatic",
        store: "SQLite (WAL, on disk)",
        create_concurrency: CONCURRENCY,
        query_max_length: QUERY_MAX_LENGTH,
        queries_cut: cut.map(({ id }) => id),
      },
      evaluator,
      figures: Object.fromEntries(
        Object.entries(evaluations).map(([name, { ndcg10, recall100 }]) => [
          name,
          { ndcg10: round(ndcg10), recall100: round(recall100) },
        ]),
      ),
      ours_vs_reference: {
        max_abs_score_difference: maxScoreDifference,
        worst,
        queries_top10_differ: top10Differ.length,
        queries_top100_differ: top100Differ,
        top10_differences: top10Differ.slice(0, 10),
        answers_changed_between_passes: unstable.map(({ id }) => id),
        answer_problems: problems,
      },
      corpus: {
        documents: corpus.length,
        created: ingest.documentIds.size,
        with_chunks: perDocument.size,
        empty,
        chunks: chunks.length,
        documents_split: split,
        most_chunks_in_a_document: Math.max(...perDocument.values()),
        records_returned_mean: round(recordCounts / queries.length, 1),
        documents_returned_mean: round(documentsReturned.reduce((a, b) => a + b, 0) / queries.length, 1),
        documents_returned_min: Math.min(...documentsReturned),
      },
      ingest: {
        seconds: round(ingest.seconds, 2),
        created_seconds: round(ingest.createdSeconds, 2),
        documents_per_s: round(ingest.documentIds.size / ingest.seconds, 1),
        polls: ingest.polls,
      },
      retrieve_ms: {
        mean: round(latencies.reduce((a, b) => a + b, 0) / latencies.length, 2),
        p50: round(percentile(latencies, 50), 2),
        p99: round(percentile(latencies, 99), 2),
        max: round(latencies.at(-1)!, 2),
        warm_up_mean: round(queries.reduce((sum, { id }) => sum + warmUp.get(id)!.ms, 0) / queries.length, 2),
        postings_mean: round(postings.reduce((a, b) => a + b, 0) / postings.length, 0),
        postings_max: Math.max(...postings),
        slowest,
      },
      per_query_ours: perQuery,
    };
    if (problems.length > 0) log(`  ${problems.length} problems in the answers (see the JSON)`);
    const markdown = qualityMarkdown(result);
    mkdirSync(RESULTS, { recursive: true });
    const name = `${result.date}-${result.commit}-retrieval-quality`;
    writeFileSync(join(RESULTS, `${name}.json`), `${JSON.stringify(result, null, 2)}\n`);
    writeFileSync(join(RESULTS, "retrieval-quality-latest.md"), markdown);
    return markdown;
  } finally {
    await server.stop();
    rmSync(database.directory, { recursive: true, force: true });
  }
}

interface QualityResult {
  commit: string;
  date: string;
  settings: { queries_cut: string[] };
  evaluator: ReturnType<typeof checkEvaluator>;
  figures: Record<string, { ndcg10: number; recall100: number }>;
  ours_vs_reference: {
    max_abs_score_difference: number;
    queries_top10_differ: number;
    queries_top100_differ: number;
    answers_changed_between_passes: string[];
    answer_problems: string[];
  };
  corpus: {
    documents: number;
    created: number;
    with_chunks: number;
    empty: { id: string; status: number; chunks: number }[];
    chunks: number;
    documents_split: number;
    most_chunks_in_a_document: number;
    documents_returned_mean: number;
    documents_returned_min: number;
  };
  ingest: { seconds: number; documents_per_s: number };
  retrieve_ms: {
    mean: number;
    p50: number;
    p99: number;
    max: number;
    warm_up_mean: number;
    slowest: { id: string; ms: number; warm_up_ms: number; postings: number }[];
  };
}

function qualityMarkdown(result: QualityResult): string {
  const { figures, evaluator, corpus, ours_vs_reference: versus } = result;
  const row = (run: string, units: string, { ndcg10, recall100 }: { ndcg10: number; recall100: number }) =>
    `| ${run} | ${units} | ${ndcg10.toFixed(4)} | ${recall100.toFixed(4)} |`;
  const bm25s = evaluator.bm25s.filter(({ name }) => name.startsWith("stopwords+stemming"));
  const cut = result.settings.queries_cut;
  const empty = corpus.empty
    .map(({ id, status, chunks }) => `${id} answered ${status}${status === 200 ? `, ${chunks} chunks` : ""}`)
    .join("; ");
  return [
    `# Retrieval quality on Cranfield, ${result.date} (${result.commit})`,
    "",
    `\`POST /v1/datasets/{id}/retrieve\`, \`full_text_search\`, top_k ${TOP_K}, over the Cranfield abstracts created by`,
    'text (`title + " " + text`, one document each, the automatic rule) on SQLite; a document ranks at its',
    "best chunk. nDCG@10 (linear gains, log2 discount) and recall@100 (gain > 0), averaged over all 225",
    "queries (trec_eval's `ndcg_cut.10`, `recall.100`).",
    "",
    "| run | ranks | nDCG@10 | recall@100 |",
    "| --- | --- | --- | --- |",
    row("ours, over HTTP", `the top ${TOP_K} of ${corpus.chunks} chunks`, figures.ours!),
    row(
      "reference BM25, same chunks",
      `the top ${TOP_K} chunks`,
      figures.reference_same_chunks_top100_chunks!,
    ),
    row(
      "reference BM25, same chunks",
      "the top 100 documents",
      figures.reference_same_chunks_top100_documents!,
    ),
    row(
      "reference BM25, whole abstracts, queries as sent",
      `the top 100 of ${corpus.documents} abstracts`,
      figures.reference_whole_abstracts_queries_sent!,
    ),
    row(
      "reference BM25, whole abstracts, queries whole",
      `the top 100 of ${corpus.documents} abstracts`,
      figures.reference_whole_abstracts!,
    ),
    ...bm25s.map((run) =>
      row(
        `bm25s ${evaluator.library.bm25s}, ${run.name.replace(/, k1=.*/, "")}, k1 ${run.k1}`,
        "whole abstracts, queries whole",
        run,
      ),
    ),
    "",
    `- Ours against the reference over the same chunks (the domain's \`analyze\`, k1 ${BM25_K1}, b ${BM25_B}, scores`,
    `  over the query's best): the top-10 chunks differ in ${versus.queries_top10_differ} of 225 queries, the top ${TOP_K} in`,
    `  ${versus.queries_top100_differ}; largest score difference ${versus.max_abs_score_difference.toExponential(2)}.`,
    `  Answers that changed between two passes: ${versus.answers_changed_between_passes.length}; problems in the answers: ${versus.answer_problems.length}.`,
    `- Queries over ${QUERY_MAX_LENGTH} characters are refused (400, Dify's limit): ${cut.length > 0 ? cut.join(", ") : "none"}, sent`,
    "  cut at the last space within it (the references over chunks and the first over abstracts take them so).",
    `- The evaluator on \`reference-run.tsv\` (bm25s ${evaluator.run}, k1 ${evaluator.k1}): ${evaluator.ndcg10.toFixed(4)} /`,
    `  ${evaluator.recall100.toFixed(4)}, as reference.json (${evaluator.expected_ndcg10.toFixed(4)} / ${evaluator.expected_recall100.toFixed(4)}), and its first five queries' nDCG@10.`,
    `- Chunks: ${corpus.chunks} from ${corpus.with_chunks} documents; ${corpus.documents_split} split into more than one (at most`,
    `  ${corpus.most_chunks_in_a_document}). The two empty abstracts (text " "): ${empty}.`,
    `  The top ${TOP_K} chunks hold ${corpus.documents_returned_mean} documents on average (at least ${corpus.documents_returned_min}).`,
    `- Ingest: ${corpus.created} documents in ${result.ingest.seconds} s until every one is \`completed\` (${result.ingest.documents_per_s}`,
    `  documents/s, ${CONCURRENCY} requests at a time, 1 indexing worker).`,
    `- Retrieve, one query at a time after a warm-up pass: mean ${result.retrieve_ms.mean} ms, p50 ${result.retrieve_ms.p50} ms,`,
    `  p99 ${result.retrieve_ms.p99} ms, max ${result.retrieve_ms.max} ms (the warm-up pass: mean ${result.retrieve_ms.warm_up_mean} ms).`,
    `  Slowest: ${result.retrieve_ms.slowest.map(({ id, ms, warm_up_ms, postings }) => `query ${id} ${ms} ms (warm-up ${warm_up_ms}, ${postings} postings)`).join(", ")}.`,
    "",
  ].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  runRetrievalQuality().then(
    (markdown) => process.stdout.write(markdown),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
