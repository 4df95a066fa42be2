import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The repository's root, where the Dockerfile, compose.yaml and package.json's `serve` live. */
export const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
export const readAtRoot = (path: string) => readFileSync(`${ROOT}${path}`, "utf8");

export interface Instruction {
  keyword: string;
  /** What follows the keyword, continuation lines joined with a space. */
  args: string;
}
export interface Stage {
  /** The image of its `FROM`. */
  image: string;
  name: string | undefined;
  instructions: Instruction[];
}

/** A Dockerfile's stages: comments and blank lines dropped, `\` continuations joined. */
export function stagesOf(dockerfile: string): Stage[] {
  const stages: Stage[] = [];
  let pending = "";
  for (const line of dockerfile.split("\n").map((text) => text.trim())) {
    if (line === "" || line.startsWith("#")) continue;
    const continued = line.endsWith("\\");
    pending = [pending, continued ? line.slice(0, -1).trim() : line].filter(Boolean).join(" ");
    if (continued) continue;
    const [, keyword = "", args = ""] = /^(\S+)\s*(.*)$/s.exec(pending) ?? [];
    pending = "";
    if (keyword.toUpperCase() === "FROM") {
      const [image = "", as, name] = args.split(/\s+/);
      stages.push({ image, name: as?.toUpperCase() === "AS" ? name : undefined, instructions: [] });
    } else {
      stages.at(-1)?.instructions.push({ keyword: keyword.toUpperCase(), args });
    }
  }
  return stages;
}

export const argsOf = (stage: Stage, keyword: string) =>
  stage.instructions.filter((instruction) => instruction.keyword === keyword).map(({ args }) => args);

/** A `CMD`/`ENTRYPOINT`/`HEALTHCHECK CMD` in exec form (a JSON array), which no shell rewrites. */
export function execForm(args: string): string[] {
  const parsed: unknown = JSON.parse(args);
  if (!Array.isArray(parsed) || !parsed.every((part) => typeof part === "string"))
    throw new Error(`not an exec form: ${args}`);
  return parsed;
}

/** `ENV` lines as a record (`KEY=value` pairs; the legacy `ENV KEY value` form too). */
export function environmentOf(stage: Stage): Record<string, string> {
  const pairs = argsOf(stage, "ENV").flatMap((args) =>
    args.includes("=")
      ? [...args.matchAll(/(\w+)=("[^"]*"|\S*)/g)].map(([, key, value]) => [
          key,
          value!.replace(/^"|"$/g, ""),
        ])
      : [args.split(/\s+(.*)/s).slice(0, 2)],
  );
  return Object.fromEntries(pairs);
}

/** `COPY [--flag=…]… source… destination`: its flags, sources and destination. */
export function copyOf(args: string) {
  const words = args.split(/\s+/);
  const flags = Object.fromEntries(
    words.filter((word) => word.startsWith("--")).map((word) => word.slice(2).split("=") as [string, string]),
  );
  const paths = words.filter((word) => !word.startsWith("--"));
  return { flags, sources: paths.slice(0, -1), destination: paths.at(-1) ?? "" };
}

/** Whether a `.dockerignore` leaves `path` (relative to the context, `/`-separated) out of the context. */
export function ignoredByDockerignore(dockerignore: string, path: string): boolean {
  const patterns = dockerignore
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
  let ignored = false;
  for (const pattern of patterns) {
    const negated = pattern.startsWith("!");
    const glob = (negated ? pattern.slice(1) : pattern).replace(/^\/|\/$/g, "");
    const source = glob
      .split("**/")
      .map((part) =>
        part
          .replace(/[.+^${}()|[\]\\]/g, "\\$&")
          .replace(/\*/g, "[^/]*")
          .replace(/\?/g, "[^/]"),
      )
      .join("(?:.*/)?");
    if (new RegExp(`^${source}(?:/.*)?$`).test(path)) ignored = !negated;
  }
  return ignored;
}

/** Compose's interpolation of `${NAME}`, `${NAME:-default}` and `${NAME:?error}` from `environment`. */
export function interpolate(text: string, environment: Record<string, string>): string {
  return text.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_, name: string, kind?: string, word?: string) => {
    const value = environment[name];
    if (value !== undefined && value !== "") return value;
    if (kind === "?") throw new Error(`${name} is required: ${word}`);
    return kind === "-" ? (word ?? "") : "";
  });
}

export interface Started {
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
}

/** Runs `command` (a `node` invocation, run on this Node) in `cwd` until it logs that it listens. */
export async function startCommand(command: string[], cwd: string, environment: Record<string, string>) {
  const [program, ...args] = command;
  if (program !== "node") throw new Error(`the start command runs ${program}, not node`);
  const child = spawn(process.execPath, args, { cwd, env: environment, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
      const listening = stdout
        .split("\n")
        .slice(0, -1)
        .map((line) => JSON.parse(line) as { msg?: string; url?: string })
        .find((line) => line.msg === "listening");
      if (listening?.url) resolve(listening.url);
    });
    exited.then((code) => reject(new Error(`the start command exited with ${code}: ${stdout}${stderr}`)));
  });
  return { child, url, exited } satisfies Started;
}

/** Runs a health check's exec form (`node -e …`) with `environment`: its exit code. */
export function runHealthCheck(command: string[], environment: Record<string, string>) {
  const [program, ...args] = command;
  if (program !== "node") throw new Error(`the health check runs ${program}, not node`);
  const child = spawn(process.execPath, args, { env: environment, stdio: "ignore" });
  return new Promise<number | null>((resolve) => child.on("close", resolve));
}
