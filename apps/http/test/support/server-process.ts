import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const MAIN = fileURLToPath(new URL("../../dist/main.js", import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Parsed JSON log lines so far. */
  lines: Record<string, unknown>[];
  waitForLine(predicate: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  exited: Promise<{ code: number | null; stderr: string }>;
  /** Everything written to stderr so far. */
  stderr(): string;
}

/**
 * Runs the built server (what `npm start` runs) as a child process and waits until it listens.
 * Demo mode is off unless the environment given turns it on.
 */
export async function spawnServer(
  cwd: string,
  environment: Record<string, string>,
  /** A process group of its own, as a service manager starts it: signalled whole with `process.kill(-pid)`. */
  { ownProcessGroup = false } = {},
): Promise<ServerProcess> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build first (turbo's test task does).`);
  const child = spawn(process.execPath, [MAIN], {
    cwd,
    detached: ownProcessGroup,
    env: {
      PATH: process.env.PATH ?? "",
      PORT: "0",
      HOST: "127.0.0.1",
      DEMO: "off",
      SHUTDOWN_DRAIN_MS: "0",
      ...environment,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];
  let buffered = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    const complete = buffered.split("\n");
    buffered = complete.pop() ?? "";
    for (const text of complete.filter(Boolean)) lines.push(JSON.parse(text));
    for (const wake of waiters.splice(0)) wake();
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) => {
    child.on("close", (code) => {
      for (const wake of waiters.splice(0)) wake();
      resolve({ code, stderr });
    });
  });
  const waitForLine = async (predicate: (line: Record<string, unknown>) => boolean) => {
    for (;;) {
      const found = lines.find(predicate);
      if (found) return found;
      if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}): ${stderr}`);
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  const listening = await Promise.race([
    waitForLine((line) => line.msg === "listening"),
    exited.then(({ code }) => {
      throw new Error(`server exited with ${code} before listening: ${stderr}`);
    }),
  ]);
  return { child, url: String(listening.url), lines, waitForLine, exited, stderr: () => stderr };
}

/**
 * Runs the built server (on `node`, by default this one) expecting it to refuse to start: resolves
 * with how it ended and what it wrote, or rejects if it is still running after `withinMs` (it is
 * then killed).
 */
export async function spawnRefusedServer(
  cwd: string,
  environment: Record<string, string>,
  { withinMs = 15_000, node = process.execPath } = {},
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build first (turbo's test task does).`);
  const child = spawn(node, [MAIN], {
    cwd,
    env: { PATH: process.env.PATH ?? "", PORT: "0", HOST: "127.0.0.1", DEMO: "off", ...environment },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the server was still running after ${withinMs} ms: ${stdout}${stderr}`));
    }, withinMs);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}
