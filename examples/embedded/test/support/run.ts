import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname } from "node:path";

/** The system's CA bundle: npm on this Node (24) trusts only its own, not a proxy's that the system adds. */
const SYSTEM_CAS = process.env.NODE_EXTRA_CA_CERTS ?? "/etc/ssl/certs/ca-certificates.crt";

/**
 * The environment of a command in the outside folder: this process's, without what pnpm, npm scripts
 * and vitest add (an outside project has none of it), and this Node (24) first on PATH, so npm runs on it.
 */
export function outsideEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const inherited = Object.entries(process.env).filter(
    ([name]) => !/^(npm_|pnpm_|vitest|turbo_|node_env$|node_options$|init_cwd$)/i.test(name),
  );
  return {
    ...Object.fromEntries(inherited),
    PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}`,
    npm_config_update_notifier: "false",
    ...(existsSync(SYSTEM_CAS) && { npm_config_cafile: SYSTEM_CAS }),
    ...extra,
  };
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to its end (or kills it after `timeoutMs`, saying so in its stderr); never throws
 * for a non-zero exit (the caller asserts on `code`).
 */
export function run(
  command: string,
  args: string[],
  cwd: string,
  environment: Record<string, string> = {},
  timeoutMs = 0,
): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd, env: outsideEnvironment(environment), maxBuffer: 64 * 1024 * 1024, timeout: timeoutMs },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        const killed = error?.killed ? `\n(killed after ${timeoutMs / 1000} s)` : "";
        resolve({ code, stdout, stderr: `${stderr}${killed}` });
      },
    );
  });
}

/** Runs a command that must succeed, and answers its stdout; its stderr is in the error otherwise. */
export async function runOk(
  command: string,
  args: string[],
  cwd: string,
  environment: Record<string, string> = {},
): Promise<string> {
  const result = await run(command, args, cwd, environment);
  if (result.code !== 0) {
    throw new Error(`${command} ${args.join(" ")} exited ${result.code}:\n${result.stderr}${result.stdout}`);
  }
  return result.stdout;
}

export interface Listening {
  url: string;
  stop(): Promise<number | null>;
}

/**
 * Starts a server process that prints a JSON line `{"msg": "listening", "url": …}` once it listens
 * (the standalone server and the example's host both do), and answers its URL.
 */
export function startListening(
  command: string,
  args: string[],
  cwd: string,
  environment: Record<string, string>,
): Promise<Listening> {
  const child: ChildProcess = spawn(command, args, {
    cwd,
    env: outsideEnvironment(environment),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  /** SIGTERM, as a service manager stops it; SIGKILL ten seconds later if it has not exited. */
  const stop = async () => {
    if (child.exitCode !== null) return child.exitCode;
    child.kill("SIGTERM");
    const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    const code = await exited;
    clearTimeout(killer);
    return code;
  };
  return new Promise((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const lines = output.split("\n");
      output = lines.pop() ?? "";
      for (const line of lines) {
        if (!line.startsWith("{")) continue;
        const parsed = JSON.parse(line) as { msg?: string; url?: string };
        if (parsed.msg === "listening" && parsed.url) resolve({ url: parsed.url, stop });
      }
    });
    void exited.then((code) => reject(new Error(`${command} exited ${code} before listening:\n${stderr}`)));
  });
}
