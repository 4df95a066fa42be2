import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createTestDatabaseUrl } from "@service-api/stores/testing";

const MAIN = fileURLToPath(new URL("../../dist/main.js", import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built `service-api` binary, as a user's shell would. */
export function cli(
  args: string[],
  options: { databaseUrl: string; cwd: string; stdin?: string | Buffer; env?: Record<string, string> },
): Promise<CliResult> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build first (turbo's test task does).`);
  const child = spawn(process.execPath, [MAIN, ...args], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? "", DATABASE_URL: options.databaseUrl, ...options.env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk;
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk;
  });
  child.stdin.end(options.stdin ?? "");
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

/** A scratch folder and a fresh database of the store under test, both removed by `cleanup`. */
export async function scratch() {
  const directory = mkdtempSync(join(tmpdir(), "service-api-cli-"));
  const database = await createTestDatabaseUrl();
  return {
    directory,
    databaseUrl: database.databaseUrl,
    run: (args: string[], stdin?: string | Buffer, env?: Record<string, string>) =>
      cli(args, { databaseUrl: database.databaseUrl, cwd: directory, stdin, env }),
    cleanup: async () => {
      rmSync(directory, { recursive: true, force: true });
      await database.drop();
    },
  };
}
