import { execSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, release, totalmem } from "node:os";
import { fileURLToPath } from "node:url";
import { generateDataset } from "./generate-dataset.js";
import { generatePostgresDataset } from "./generate-postgres-dataset.js";
import { type LoadSettings, type Measurement, measure } from "./measure.js";
import { OPERATION_NAMES, OPERATIONS, type OperationName, READS } from "./operations.js";
import {
  type BenchResults,
  chart,
  markdown,
  type PostgresSizeResult,
  type SizeResult,
  summarize,
} from "./report.js";
import { type RunningProcess, startEmptyServer, startFloorServer, startOurServer } from "./servers.js";

const BENCH = fileURLToPath(new URL("../", import.meta.url));
const README = fileURLToPath(new URL("../../README.md", import.meta.url));
const sizes = (process.env.BENCH_SIZES ?? "1000,100000,1000000").split(",").map(Number);
const settings: LoadSettings = {
  connections: Number(process.env.BENCH_CONNECTIONS ?? 16),
  warmupSeconds: Number(process.env.BENCH_WARMUP ?? 2),
  durationSeconds: Number(process.env.BENCH_DURATION ?? 5),
};
const workers = Number(process.env.BENCH_WORKERS ?? 2);
/** A PostgreSQL server to measure too: BENCH_POSTGRES_URL, or DATABASE_URL when it is one. */
const postgresUrl =
  process.env.BENCH_POSTGRES_URL ??
  (/^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? "") ? process.env.DATABASE_URL : undefined);
const log = (line: string) => process.stderr.write(`${line}\n`);
let port = 6100;

async function measureAll(server: RunningProcess, documents: number, names: readonly OperationName[]) {
  const results = {} as Record<OperationName, Measurement>;
  for (const name of names) {
    results[name] = await measure(server.url, OPERATIONS[name], documents, settings, server);
    log(`    ${name}: ${results[name].req_per_s} req/s, p99 ${results[name].p99_ms} ms`);
  }
  return results;
}

async function measureSize(documents: number): Promise<SizeResult> {
  const generated = `${BENCH}.data/documents-${documents}.sqlite`;
  log(`\n${documents} documents`);
  await generateDataset(generated, documents, log);
  // Each run writes (variables, bindings) to a copy, so the generated set stays as built.
  const path = `${BENCH}.data/run.sqlite`;
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${path}${suffix}`, { force: true });
  copyFileSync(generated, path);

  log("  service-api");
  const ours = await startOurServer(`file:${path}`, ++port);
  const oursResults = await measureAll(ours, documents, OPERATION_NAMES);
  const peak = ours.peakRssMb().total;
  await ours.stop();
  log(`  floor (node:http + better-sqlite3), our peak RSS was ${peak} MB`);
  const floor = await startFloorServer(path, ++port);
  const floorResults = await measureAll(floor, documents, OPERATION_NAMES);
  await floor.stop();
  return { documents, ours: oursResults, floor: floorResults, peak_rss_mb: peak };
}

async function measurePostgres(serverUrl: string, documents: number): Promise<PostgresSizeResult> {
  log(`\nPostgreSQL, ${documents} documents`);
  const databaseUrl = await generatePostgresDataset(serverUrl, documents, log);
  const ours = await startOurServer(databaseUrl, ++port);
  const results = await measureAll(ours, documents, OPERATION_NAMES);
  const peak = ours.peakRssMb().total;
  await ours.stop();
  return { documents, ours: results, peak_rss_mb: peak };
}

async function measureEmpty(kind: "express" | "http"): Promise<Measurement> {
  const server = await startEmptyServer(kind, ++port);
  const result = await measure(server.url, undefined, 0, settings, server);
  await server.stop();
  log(`  empty ${kind}: ${result.req_per_s} req/s`);
  return result;
}

async function measureCluster(documents: number) {
  const path = `${BENCH}.data/run.sqlite`;
  log(`\ncluster: ${workers} workers against 1, reads at ${documents} documents`);
  const one = await startOurServer(`file:${path}`, ++port, 1);
  const oneResults = await measureAll(one, documents, READS);
  await one.stop();
  const many = await startOurServer(`file:${path}`, ++port, workers);
  const manyResults = await measureAll(many, documents, READS);
  await many.stop();
  return { workers, one: oneResults, many: manyResults };
}

async function main(): Promise<void> {
  mkdirSync(`${BENCH}.data`, { recursive: true });
  const commit = execSync("git rev-parse --short HEAD", { cwd: BENCH }).toString().trim();
  const date = new Date().toISOString().slice(0, 10);
  const measured: SizeResult[] = [];
  for (const documents of sizes) measured.push(await measureSize(documents));
  // The cluster runs on the copy of the last size measured.
  const cluster = workers > 1 ? await measureCluster(sizes.at(-1)!) : undefined;
  const postgres: PostgresSizeResult[] = [];
  if (postgresUrl)
    for (const documents of sizes) postgres.push(await measurePostgres(postgresUrl, documents));
  log("\nempty routes");
  const empty = { express: await measureEmpty("express"), http: await measureEmpty("http") };

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
      sizes,
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
  const stem = `${BENCH}results/${date}-${commit}`;
  mkdirSync(`${BENCH}results`, { recursive: true });
  writeFileSync(`${stem}.json`, `${JSON.stringify(results, null, 2)}\n`);
  const table = markdown(results);
  writeFileSync(`${stem}.md`, table);
  writeFileSync(`${BENCH}results/latest.md`, table);
  writeFileSync(`${BENCH}results/latest.svg`, chart(results));
  const readme = readFileSync(README, "utf8");
  const section = /(<!-- bench:start -->\n)[\s\S]*?(<!-- bench:end -->)/;
  if (section.test(readme)) writeFileSync(README, readme.replace(section, `$1${table}$2`));
  process.stdout.write(table);
  log(`\nResults: ${stem}.json, .md; chart: bench/results/latest.svg`);
}

main().catch((error: unknown) => {
  log(`bench failed: ${error instanceof Error ? error.stack : String(error)}`);
  process.exit(1);
});
