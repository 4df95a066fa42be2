import { execSync } from "node:child_process";
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { cpus, release, totalmem } from "node:os";
import { fileURLToPath } from "node:url";
import { autocannonLoad } from "./autocannon-load.js";
import { chart } from "./chart.js";
import { runChunksAtScale } from "./chunks-at-scale.js";
import { generateDataset } from "./generate-dataset.js";
import {
  generatePostgresDataset,
  postgresDatabaseDirectories,
  vacuumSmallTables,
} from "./generate-postgres-dataset.js";
import { holdInMemory } from "./hold-in-memory.js";
import { runIngest } from "./ingest.js";
import { bestOf, type LoadSettings, type Measurement, measure } from "./measure.js";
import {
  FLOORED,
  MANAGED,
  OPERATION_NAMES,
  OPERATIONS,
  type OperationName,
  READS,
  WRITES,
} from "./operations.js";
import {
  type BenchResults,
  markdown,
  type PostgresSizeResult,
  type SizeResult,
  summarize,
} from "./report.js";
import { runRetrievalLatency } from "./retrieval-latency.js";
import { runRetrievalQuality } from "./retrieval-quality.js";
import { type RunningProcess, startEmptyServer, startFloorServer, startOurServer } from "./servers.js";
import { wrkLoad } from "./wrk-load.js";

const BENCH = fileURLToPath(new URL("../", import.meta.url));
const sizes = (process.env.BENCH_SIZES ?? "1000,100000,1000000").split(",").map(Number);
const settings: LoadSettings = {
  connections: Number(process.env.BENCH_CONNECTIONS ?? 16),
  warmupSeconds: Number(process.env.BENCH_WARMUP ?? 2),
  durationSeconds: Number(process.env.BENCH_DURATION ?? 5),
};
const workers = Number(process.env.BENCH_WORKERS ?? 2);
/** How many times each measurement is taken; the best round counts. */
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 2));
/** A PostgreSQL server to measure too: BENCH_POSTGRES_URL, or DATABASE_URL when it is one. */
const postgresUrl =
  process.env.BENCH_POSTGRES_URL ??
  (/^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? "") ? process.env.DATABASE_URL : undefined);
/** The load generator: autocannon (default), or wrk, which leaves the server more of the cores. */
const loadGenerator = process.env.BENCH_LOAD ?? "autocannon";
if (!["autocannon", "wrk"].includes(loadGenerator)) throw new Error("BENCH_LOAD: autocannon or wrk");
/** Hold the SQLite files and the PostgreSQL databases in the page cache (vmtouch) while measured. */
const holdData = process.env.BENCH_HOLD_DATA === "1";
/** Passed to our server and applied by the floor alike. */
const mmapSizeBytes = Number(process.env.SQLITE_MMAP_SIZE || 0);
if (!Number.isSafeInteger(mmapSizeBytes) || mmapSizeBytes < 0)
  throw new Error("SQLITE_MMAP_SIZE: a whole number of bytes ≥ 0");
const log = (line: string) => process.stderr.write(`${line}\n`);
let port = 6100;

/** A server under measurement, and the size of the data set its requests are spread over. */
interface Contender {
  server: RunningProcess;
  documents: number;
  /** Run before each of its measurements. */
  beforeEach?: () => Promise<void>;
}

/**
 * Measures each operation on every contender in turn, `rounds` times, and keeps each one's best
 * round. This machine's speed drifts by tens of percent over minutes, and noise only ever slows a
 * run: taking turns lets a slow spell hit every contender alike, so ratios between them (ours to the
 * floor, 1M to 1k, 2 workers to 1) compare like with like. Errors are summed over all rounds.
 */
async function measureInTurn<Label extends string, Name extends OperationName | "empty">(
  contenders: Record<Label, Contender>,
  names: readonly Name[],
) {
  const labels = Object.keys(contenders) as Label[];
  const results = new Map<Label, Record<string, Measurement>>(labels.map((label) => [label, {}]));
  for (const name of names) {
    const operation = name === "empty" ? undefined : OPERATIONS[name as OperationName];
    for (let round = 0; round < rounds; round++) {
      for (const label of labels) {
        const { server, documents, beforeEach } = contenders[label];
        await beforeEach?.();
        const measured = await measure(load, server.url, operation, documents, settings, server);
        const kept = results.get(label)!;
        kept[name] = bestOf(kept[name], measured);
      }
    }
    const line = labels.map((label) => `${label} ${results.get(label)![name]!.rounds_req_per_s!.join("/")}`);
    log(`  ${name} (req/s per round): ${line.join(", ")}`);
  }
  return Object.fromEntries(results) as Record<Label, Record<Name, Measurement>>;
}

const stopAll = (contenders: Record<string, Contender>) =>
  Promise.all(Object.values(contenders).map(({ server }) => server.stop()));

/** The copy a run writes to (variables, bindings), so the generated set stays as built. */
function freshCopyOf(documents: number): string {
  const path = `${BENCH}.data/run-${documents}.sqlite`;
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${path}${suffix}`, { force: true });
  copyFileSync(`${BENCH}.data/documents-${documents}.sqlite`, path);
  return path;
}

/** With BENCH_HOLD_DATA=1, the files stay in memory until `release`. */
async function held(paths: string[]) {
  if (!holdData) return { release: async () => {} };
  log(`  holding ${paths.length} path(s) in the page cache (vmtouch -l)`);
  return holdInMemory(paths);
}

/** Every size on SQLite, ours and the floor, all running and taking turns. */
async function measureSizes(): Promise<SizeResult[]> {
  for (const documents of sizes) {
    log(`\n${documents} documents`);
    await generateDataset(`${BENCH}.data/documents-${documents}.sqlite`, documents, log);
  }
  log(`\nSQLite: service-api and the floor (node:http + better-sqlite3) at each size, in turn`);
  const contenders: Record<string, Contender> = {};
  const paths = sizes.map(freshCopyOf);
  const hold = await held(paths);
  for (const [index, documents] of sizes.entries()) {
    const path = paths[index]!;
    contenders[`ours@${documents}`] = {
      server: await startOurServer(`file:${path}`, ++port, 1, mmapSizeBytes),
      documents,
    };
    contenders[`floor@${documents}`] = {
      server: await startFloorServer(path, ++port, mmapSizeBytes),
      documents,
    };
  }
  const floored = await measureInTurn(contenders, FLOORED);
  const ours = Object.fromEntries(Object.entries(contenders).filter(([label]) => label.startsWith("ours@")));
  log("  the management operations: ours only (the floor does the five)");
  const managed = await measureInTurn(ours, MANAGED);
  const measured = sizes.map((documents) => ({
    documents,
    ours: { ...floored[`ours@${documents}`]!, ...managed[`ours@${documents}`]! },
    floor: floored[`floor@${documents}`]!,
    peak_rss_mb: contenders[`ours@${documents}`]!.server.peakRssMb().total,
  }));
  await stopAll(contenders);
  await hold.release();
  log(`  our peak RSS: ${measured.map((size) => `${size.peak_rss_mb} MB at ${size.documents}`).join(", ")}`);
  return measured;
}

async function measurePostgres(serverUrl: string): Promise<PostgresSizeResult[]> {
  const contenders: Record<string, Contender> = {};
  const databaseUrls = new Map<number, string>();
  for (const documents of sizes) {
    log(`\nPostgreSQL, ${documents} documents`);
    const databaseUrl = await generatePostgresDataset(serverUrl, documents, log);
    databaseUrls.set(documents, databaseUrl);
    contenders[`ours@${documents}`] = {
      server: await startOurServer(databaseUrl, ++port),
      documents,
      beforeEach: () => vacuumSmallTables(databaseUrl),
    };
  }
  log("\nPostgreSQL: service-api at each size, in turn");
  const hold = await held(await postgresDatabaseDirectories(serverUrl, sizes));
  const results = await measureInTurn(contenders, OPERATION_NAMES);
  const peaks = sizes.map((documents) => contenders[`ours@${documents}`]!.server.peakRssMb().total);
  await stopAll(contenders);
  // The writes again on a server whose commits do not wait for the WAL flush, as SQLite's do not.
  log("\nPostgreSQL: the writes with synchronous_commit=off, in turn");
  const relaxedContenders: Record<string, Contender> = {};
  for (const documents of sizes) {
    const databaseUrl = new URL(databaseUrls.get(documents)!);
    databaseUrl.searchParams.set("options", "-c synchronous_commit=off");
    relaxedContenders[`relaxed@${documents}`] = {
      server: await startOurServer(databaseUrl.toString(), ++port),
      documents,
      beforeEach: () => vacuumSmallTables(databaseUrl.toString()),
    };
  }
  const relaxed = await measureInTurn(relaxedContenders, WRITES);
  await stopAll(relaxedContenders);
  await hold.release();
  return sizes.map((documents, index) => ({
    documents,
    ours: results[`ours@${documents}`]!,
    relaxed: relaxed[`relaxed@${documents}`]!,
    peak_rss_mb: peaks[index]!,
  }));
}

async function measureEmpty() {
  log("\nempty routes, in turn");
  const contenders = {
    express: { server: await startEmptyServer("express", ++port), documents: 0 },
    http: { server: await startEmptyServer("http", ++port), documents: 0 },
  };
  const results = await measureInTurn(contenders, ["empty"] as const);
  await stopAll(contenders);
  return { express: results.express.empty!, http: results.http.empty! };
}

/** 1 worker and `workers`, in turn, on a fresh copy of the largest size. */
async function measureCluster() {
  const documents = sizes.at(-1)!;
  log(`\ncluster: ${workers} workers against 1, reads at ${documents} documents, in turn`);
  const path = freshCopyOf(documents);
  const hold = await held([path]);
  const contenders = {
    one: { server: await startOurServer(`file:${path}`, ++port, 1, mmapSizeBytes), documents },
    many: { server: await startOurServer(`file:${path}`, ++port, workers, mmapSizeBytes), documents },
  };
  const results = await measureInTurn(contenders, READS);
  await stopAll(contenders);
  await hold.release();
  return { workers, one: results.one, many: results.many };
}

mkdirSync(`${BENCH}.data`, { recursive: true });
const load = loadGenerator === "wrk" ? wrkLoad(`${BENCH}.data`) : autocannonLoad;

async function main(): Promise<void> {
  const commit = execSync("git rev-parse --short HEAD", { cwd: BENCH }).toString().trim();
  const date = new Date().toISOString().slice(0, 10);
  const measured = await measureSizes();
  const cluster = workers > 1 ? await measureCluster() : undefined;
  const postgres = postgresUrl ? await measurePostgres(postgresUrl) : [];
  const empty = await measureEmpty();

  const base = {
    date,
    commit,
    machine: {
      cpus: cpus().length,
      model: cpus()[0]?.model ?? "unknown",
      memory_gb: Math.round(totalmem() / 2 ** 30),
      kernel: release(),
    },
    node: process.version,
    settings: {
      connections: settings.connections,
      warmup_s: settings.warmupSeconds,
      duration_s: settings.durationSeconds,
      rounds,
      sizes,
      load_generator: loadGenerator,
      sqlite_mmap_size: mmapSizeBytes,
      sqlite_files_held_in_memory: holdData,
      store: postgresUrl
        ? "SQLite (WAL, on disk), then PostgreSQL on the same machine"
        : "SQLite (WAL, on disk)",
    },
    sizes: measured,
    empty,
    ...(cluster && { cluster }),
    ...(postgres.length > 0 && { postgres }),
  };
  const results: BenchResults = { ...base, ...summarize(base) };
  const variant = `${loadGenerator === "wrk" ? "-wrk" : ""}${mmapSizeBytes > 0 ? "-mmap" : ""}${holdData ? "-held" : ""}`;
  const stem = `${BENCH}results/${date}-${commit}${variant}`;
  mkdirSync(`${BENCH}results`, { recursive: true });
  writeFileSync(`${stem}.json`, `${JSON.stringify(results, null, 2)}\n`);
  const table = markdown(results);
  writeFileSync(`${stem}.md`, table);
  writeFileSync(`${BENCH}results/latest.md`, table);
  writeFileSync(`${BENCH}results/latest.svg`, chart(results));
  process.stdout.write(table);
  log(`\nResults: ${stem}.json, .md; chart: bench/results/latest.svg`);
}

/** `BENCH_INGEST`: `1` (default) measures ingest after the reads, `only` ingest alone, `0` no ingest. */
const ingest = process.env.BENCH_INGEST ?? "1";
/**
 * `BENCH_RETRIEVAL`: `1` (default, but for `BENCH_INGEST=only`) measures retrieval quality on
 * Cranfield after the rest, `only` it alone, `0` not at all.
 */
const retrieval = process.env.BENCH_RETRIEVAL ?? (ingest === "only" ? "0" : "1");
if (!["0", "1", "only"].includes(retrieval)) throw new Error("BENCH_RETRIEVAL: 0, 1 or only");
/**
 * `BENCH_RETRIEVAL_LATENCY`: `1` (default, but for `BENCH_INGEST=only` and `BENCH_RETRIEVAL=only`)
 * measures retrieval at 10k to 1M segments last, on SQLite and the PostgreSQL server if there is
 * one; `only` it alone; `0` not at all.
 */
const latency =
  process.env.BENCH_RETRIEVAL_LATENCY ?? (ingest === "only" || retrieval === "only" ? "0" : "1");
if (!["0", "1", "only"].includes(latency)) throw new Error("BENCH_RETRIEVAL_LATENCY: 0, 1 or only");

/**
 * `BENCH_CHUNKS`: `1` (default, but for another stage's `only`) measures the chunks API on a
 * document of 100k segments in a dataset of 1M after the rest; `only` it alone; `0` not at all.
 */
const chunks =
  process.env.BENCH_CHUNKS ??
  ([ingest, retrieval, process.env.BENCH_RETRIEVAL_LATENCY].includes("only") ? "0" : "1");
if (!["0", "1", "only"].includes(chunks)) throw new Error("BENCH_CHUNKS: 0, 1 or only");

async function everything(): Promise<void> {
  if (chunks === "only") {
    process.stdout.write(await runChunksAtScale());
    log("Chunks at scale: bench/results/chunks-at-scale-latest.md");
    return;
  }
  if (latency === "only") {
    process.stdout.write(await runRetrievalLatency(postgresUrl));
    log("Retrieval latency: bench/results/retrieval-latency-latest.md");
    return;
  }
  if (retrieval !== "only") {
    if (ingest !== "only") await main();
    if (ingest !== "0") {
      process.stdout.write(await runIngest());
      log("Ingest: bench/results/ingest-latest.md");
    }
  }
  if (retrieval !== "0") {
    process.stdout.write(await runRetrievalQuality());
    log("Retrieval quality: bench/results/retrieval-quality-latest.md");
  }
  if (latency !== "0") {
    process.stdout.write(await runRetrievalLatency(postgresUrl));
    log("Retrieval latency: bench/results/retrieval-latency-latest.md");
  }
  if (chunks !== "0") {
    process.stdout.write(await runChunksAtScale());
    log("Chunks at scale: bench/results/chunks-at-scale-latest.md");
  }
}

everything().catch((error: unknown) => {
  // fetch's own failure ("fetch failed") says why only in its cause.
  const cause =
    error instanceof Error && error.cause !== undefined ? `\ncaused by: ${String(error.cause)}` : "";
  log(`bench failed: ${error instanceof Error ? error.stack : String(error)}${cause}`);
  process.exit(1);
});
