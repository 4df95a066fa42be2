import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const repository = fileURLToPath(new URL("../../", import.meta.url));
export const OUR_SERVER = `${repository}apps/http/dist/main.js`;

/** The Node flags of the start command (package.json's serve script): the benchmark runs what `npm start` runs. */
const START_FLAGS = (() => {
  const serve: string = JSON.parse(readFileSync(`${repository}package.json`, "utf8")).scripts.serve;
  return (
    /node ((?:--\S+ )*)apps\/http\/dist\/main\.js/.exec(serve)?.[1]?.trim().split(" ").filter(Boolean) ?? []
  );
})();
const HERE = fileURLToPath(new URL(".", import.meta.url));

export interface RunningProcess {
  url: string;
  child: ChildProcess;
  /** Peak resident memory in MB of the process and its children (cluster workers), so far. */
  peakRssMb(): { total: number; largest: number };
  /** CPU seconds (user and system) the process and its children have used so far. */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

function peakRssKb(pid: number): number {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Linux's clock ticks per second, in which /proc/<pid>/stat counts CPU time. */
const TICKS_PER_SECOND = 100;

function cpuSecondsOf(pid: number): number {
  try {
    // Fields after the command name: state is the 1st, utime the 12th, stime the 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

async function waitUntilAnswering(url: string, child: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`no answer from ${url}`);
}

/** Servers still running: stopped when the benchmark exits, however it exits. */
const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(130));

async function start(
  args: string[],
  environment: Record<string, string>,
  port: number,
  probe: string,
): Promise<RunningProcess> {
  const child = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH ?? "", ...environment },
    stdio: ["ignore", "ignore", "inherit"],
  });
  running.add(child);
  child.once("exit", () => running.delete(child));
  const url = `http://127.0.0.1:${port}`;
  await waitUntilAnswering(`${url}${probe}`, child);
  return {
    url,
    child,
    cpuSeconds: () =>
      [child.pid!, ...childrenOf(child.pid!)].reduce((sum, pid) => sum + cpuSecondsOf(pid), 0),
    peakRssMb: () => {
      const pids = [child.pid!, ...childrenOf(child.pid!)];
      const peaks = pids.map(peakRssKb);
      return {
        total: Math.round(peaks.reduce((a, b) => a + b, 0) / 1024),
        largest: Math.round(Math.max(...peaks) / 1024),
      };
    },
    stop: async () => {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** Our server as production runs it: NODE_ENV=production, logs at warn. */
export function startOurServer(
  databaseUrl: string,
  port: number,
  workers = 1,
  mmapSizeBytes = 0,
  nodeFlags: string[] = [],
  environment: Record<string, string> = {},
): Promise<RunningProcess> {
  return start(
    [...START_FLAGS, ...nodeFlags, OUR_SERVER],
    {
      ...environment,
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      WORKERS: String(workers),
      SQLITE_MMAP_SIZE: String(mmapSizeBytes),
    },
    port,
    "/healthz",
  );
}

/** `nodeFlags`: Node's own flags, before the script (`--cpu-prof`, say). */
export function startFloorServer(
  path: string,
  port: number,
  mmapSizeBytes = 0,
  nodeFlags: string[] = [],
): Promise<RunningProcess> {
  return start(
    [...nodeFlags, `${HERE}floor-server.js`, path, String(port), String(mmapSizeBytes)],
    {},
    port,
    "/",
  );
}

export function startEmptyServer(kind: "express" | "http", port: number): Promise<RunningProcess> {
  return start([`${HERE}empty-servers.js`, kind, String(port)], {}, port, "/empty");
}
