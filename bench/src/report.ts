import type { Measurement } from "./measure.js";
import { type FlooredName, hasFloor, OPERATION_NAMES, type OperationName } from "./operations.js";

/** Ours ÷ the floor at the largest size, each of the five (issue 12: 0.7; it was 0.5). */
const FLOOR_GOAL = 0.7;

export interface SizeResult {
  documents: number;
  ours: Record<OperationName, Measurement>;
  /** The five only: the floor does not serve the management operations. */
  floor: Record<FlooredName, Measurement>;
  peak_rss_mb: number;
}

/** Our server on PostgreSQL (the floor is SQLite's, so there is no ratio to it). */
export interface PostgresSizeResult {
  documents: number;
  ours: Record<OperationName, Measurement>;
  /**
   * The writes again with `synchronous_commit=off`: a commit no longer waits for the WAL flush, the
   * durability SQLite's `synchronous=NORMAL` has (a crash of the machine may lose the last commits,
   * never corrupts). Absent in older runs.
   */
  relaxed?: Partial<Record<OperationName, Measurement>>;
  peak_rss_mb: number;
}

export interface BenchResults {
  date: string;
  commit: string;
  machine: { cpus: number; model: string; memory_gb: number; kernel: string };
  node: string;
  settings: {
    connections: number;
    warmup_s: number;
    duration_s: number;
    /** Rounds per measurement, taken in turn with the other servers; the best counts. Absent: 1. */
    rounds?: number;
    sizes: number[];
    store: string;
    /** autocannon or wrk. Absent: autocannon. */
    load_generator?: string;
    /** SQLITE_MMAP_SIZE given to our server and the floor. Absent: 0. */
    sqlite_mmap_size?: number;
    /** The SQLite files were locked in the page cache (vmtouch) while measured. Absent: false. */
    sqlite_files_held_in_memory?: boolean;
  };
  sizes: SizeResult[];
  empty: { express: Measurement; http: Measurement };
  postgres?: PostgresSizeResult[];
  cluster?: {
    workers: number;
    one: Partial<Record<OperationName, Measurement>>;
    many: Partial<Record<OperationName, Measurement>>;
  };
  operations: Record<
    OperationName,
    {
      req_per_s: number;
      p50_ms: number;
      p97_5_ms: number;
      p99_ms: number;
      /** null for an operation the floor does not serve. */
      ratio_to_floor: number | null;
      growth_1m_over_1k: number | null;
      errors: number;
    }
  >;
  targets: Record<string, { value: number; goal: string; met: boolean }>;
}

const round = (value: number, places = 2) => Math.round(value * 10 ** places) / 10 ** places;

/** The summary per operation at the largest size, and the four targets of the issue. */
export function summarize(
  results: Omit<BenchResults, "operations" | "targets">,
): Pick<BenchResults, "operations" | "targets"> {
  const largest = results.sizes.at(-1)!;
  const smallest = results.sizes[0]!;
  const operations = {} as BenchResults["operations"];
  const targets: BenchResults["targets"] = {};
  for (const name of OPERATION_NAMES) {
    const ours = largest.ours[name];
    const growth = results.sizes.length > 1 ? round(ours.req_per_s / smallest.ours[name].req_per_s) : null;
    const errors = results.sizes.reduce(
      (sum, size) => sum + size.ours[name].errors + size.ours[name].unexpected_status,
      0,
    );
    operations[name] = {
      req_per_s: ours.req_per_s,
      p50_ms: ours.p50_ms,
      p97_5_ms: ours.p97_5_ms,
      p99_ms: ours.p99_ms,
      ratio_to_floor: hasFloor(name) ? round(ours.req_per_s / largest.floor[name].req_per_s) : null,
      growth_1m_over_1k: growth,
      errors,
    };
    const ratio = operations[name].ratio_to_floor;
    if (ratio !== null) {
      // Compared unrounded: 0.695 is not 0.7.
      const exact = ours.req_per_s / largest.floor[name as FlooredName].req_per_s;
      targets[`${name}: ours / floor`] = { value: ratio, goal: `≥ ${FLOOR_GOAL}`, met: exact >= FLOOR_GOAL };
    }
    if (growth !== null)
      targets[`${name}: largest / smallest`] = { value: growth, goal: "≥ 0.9", met: growth >= 0.9 };
    targets[`${name}: errors`] = { value: errors, goal: "= 0", met: errors === 0 };
  }
  if (results.postgres && results.postgres.length > 0) {
    const [first, last] = [results.postgres[0]!, results.postgres.at(-1)!];
    for (const name of OPERATION_NAMES) {
      const errors = results.postgres.reduce(
        (sum, size) => sum + size.ours[name].errors + size.ours[name].unexpected_status,
        0,
      );
      targets[`PostgreSQL ${name}: errors`] = { value: errors, goal: "= 0", met: errors === 0 };
      for (const size of results.postgres) {
        const sqlite = results.sizes.find((each) => each.documents === size.documents);
        if (!sqlite) continue;
        const ratio = round(size.ours[name].req_per_s / sqlite.ours[name].req_per_s);
        targets[`PostgreSQL ${name} / SQLite at ${sizeLabel(size.documents)}`] = {
          value: ratio,
          goal: "≥ 0.5",
          met: ratio >= 0.5,
        };
        const relaxed = size.relaxed?.[name];
        if (relaxed) {
          const matched = round(relaxed.req_per_s / sqlite.ours[name].req_per_s);
          targets[`PostgreSQL ${name} / SQLite at ${sizeLabel(size.documents)}, same durability`] = {
            value: matched,
            goal: "≥ 0.5",
            met: matched >= 0.5,
          };
        }
      }
      if (results.postgres.length > 1) {
        const growth = round(last.ours[name].req_per_s / first.ours[name].req_per_s);
        targets[`PostgreSQL ${name}: largest / smallest`] = {
          value: growth,
          goal: "≥ 0.9",
          met: growth >= 0.9,
        };
      }
    }
  }
  targets["peak RSS at the largest size (MB)"] = {
    value: largest.peak_rss_mb,
    goal: "≤ 200",
    met: largest.peak_rss_mb <= 200,
  };
  const largestOnPostgres = results.postgres?.at(-1);
  if (largestOnPostgres) {
    targets["PostgreSQL peak RSS at the largest size (MB)"] = {
      value: largestOnPostgres.peak_rss_mb,
      goal: "≤ 200",
      met: largestOnPostgres.peak_rss_mb <= 200,
    };
  }
  if (results.cluster) {
    for (const [name, many] of Object.entries(results.cluster.many) as [OperationName, Measurement][]) {
      const speedup = round(many.req_per_s / results.cluster.one[name]!.req_per_s);
      targets[`${name}: ${results.cluster.workers} workers / 1`] = {
        value: speedup,
        goal: "≥ 1.6",
        met: speedup >= 1.6,
      };
    }
  }
  return { operations, targets };
}

/** About the most a cluster can gain here: the machine's cores over what one worker and the load generator used. */
export function clusterRoom(one: Measurement, cpus: number): number | undefined {
  if (one.server_cores === undefined || one.load_cores === undefined) return undefined;
  return round(cpus / (one.server_cores + one.load_cores));
}

export const sizeLabel = (documents: number) =>
  documents >= 1_000_000
    ? `${documents / 1_000_000}M`
    : documents >= 1000
      ? `${documents / 1000}k`
      : String(documents);

export function markdown(results: BenchResults): string {
  const lines = [
    `Run ${results.date}, commit \`${results.commit}\`, Node ${results.node}, ${results.machine.cpus} × ${results.machine.model}, ${results.machine.memory_gb} GiB; ${results.settings.store}; ${results.settings.connections} connections, no pipelining, ${results.settings.warmup_s} s warm-up, ${results.settings.duration_s} s measured, load from ${results.settings.load_generator ?? "autocannon"}; the best of ${results.settings.rounds ?? 1} round(s), taken in turn with the server compared${results.settings.sqlite_mmap_size ? `; SQLite memory-mapped (SQLITE_MMAP_SIZE=${results.settings.sqlite_mmap_size}) for ours and the floor` : ""}${results.settings.sqlite_files_held_in_memory ? "; the SQLite files (and PostgreSQL's databases) held in the page cache (vmtouch -l)" : ""}.`,
    "",
    `| operation | ${results.sizes.map((size) => `req/s at ${sizeLabel(size.documents)}`).join(" | ")} | p50 / p97.5 / p99 ms | floor req/s | ours ÷ floor | largest ÷ smallest |`,
    `|---|${results.sizes.map(() => "---:").join("|")}|---:|---:|---:|---:|`,
  ];
  const largest = results.sizes.at(-1)!;
  for (const name of OPERATION_NAMES) {
    const summary = results.operations[name];
    lines.push(
      `| ${name} | ${results.sizes.map((size) => size.ours[name].req_per_s).join(" | ")} | ${summary.p50_ms} / ${summary.p97_5_ms} / ${summary.p99_ms} | ${hasFloor(name) ? largest.floor[name].req_per_s : "–"} | ${summary.ratio_to_floor ?? "–"} | ${summary.growth_1m_over_1k ?? "–"} |`,
    );
  }
  lines.push(
    "",
    `Empty route: Express 5 ${results.empty.express.req_per_s} req/s, node:http ${results.empty.http.req_per_s} req/s (Express keeps ${round(results.empty.express.req_per_s / results.empty.http.req_per_s)} of node:http). Peak RSS of our server: ${results.sizes.map((size) => `${size.peak_rss_mb} MB at ${sizeLabel(size.documents)}`).join(", ")}.`,
  );
  if (results.cluster) {
    lines.push(
      "",
      `Cluster (${results.cluster.workers} workers vs 1, at ${sizeLabel(results.sizes.at(-1)!.documents)}): ${Object.entries(
        results.cluster.many,
      )
        .map(
          ([name, many]) =>
            `${name} ${round(many.req_per_s / results.cluster!.one[name as OperationName]!.req_per_s)}×`,
        )
        .join(", ")}.`,
      "",
      "Cores used during each cluster run (server + load generator, of " +
        `${results.machine.cpus}): ${Object.entries(results.cluster.many)
          .map(([name, many]) => {
            const one = results.cluster!.one[name as OperationName]!;
            const used = (m: Measurement) => `${m.server_cores ?? "?"} + ${m.load_cores ?? "?"}`;
            const room = clusterRoom(one, results.machine.cpus);
            return `${name} 1 worker ${used(one)}, ${results.cluster!.workers} workers ${used(many)}${room ? ` (room about ${room}×)` : ""}`;
          })
          .join(
            "; ",
          )}. The room is this machine's cores divided by what one worker and the load generator used together: about the most ${results.cluster.workers} workers can gain while the load generator shares the cores (its cost per request falls somewhat as the rate rises).`,
    );
  }
  if (results.postgres && results.postgres.length > 0) {
    const postgres = results.postgres;
    lines.push(
      "",
      `On PostgreSQL (same machine, default pool): ${postgres.map((size) => `peak RSS ${size.peak_rss_mb} MB at ${sizeLabel(size.documents)}`).join(", ")}.`,
      "",
      `| operation on PostgreSQL | ${postgres.map((size) => `req/s at ${sizeLabel(size.documents)}`).join(" | ")} | p99 ms at ${sizeLabel(postgres.at(-1)!.documents)} | ${postgres.map((size) => `without the commit flush at ${sizeLabel(size.documents)}`).join(" | ")} |`,
      `|---|${postgres.map(() => "---:").join("|")}|---:|${postgres.map(() => "---:").join("|")}|`,
      ...OPERATION_NAMES.map(
        (name) =>
          `| ${name} | ${postgres.map((size) => size.ours[name].req_per_s).join(" | ")} | ${postgres.at(-1)!.ours[name].p99_ms} | ${postgres.map((size) => size.relaxed?.[name]?.req_per_s ?? "–").join(" | ")} |`,
      ),
      "",
      "Without the commit flush: the same server with `synchronous_commit=off` in `DATABASE_URL`'s `options`, the durability of SQLite's `synchronous=NORMAL` (a crash of the machine may lose the last commits; nothing is corrupted).",
    );
  }
  lines.push("", "| target | value | goal | met |", "|---|---:|---|---|");
  for (const [name, target] of Object.entries(results.targets)) {
    lines.push(`| ${name} | ${target.value} | ${target.goal} | ${target.met ? "yes" : "**no**"} |`);
  }
  return `${lines.join("\n")}\n`;
}
