import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const SERVER = fileURLToPath(new URL("../../../http/dist/main.js", import.meta.url));

/** An answer of the API, its body read as JSON. */
export interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read response bodies freely.
  body: any;
}

export interface Server {
  /** Calls `/v1{path}` with the key, a JSON body when given. */
  call(key: string, method: string, path: string, body?: unknown): Promise<Answer>;
  stop(): Promise<void>;
}

/**
 * Runs the built HTTP server (what `pnpm start` runs, demo mode off) on `databaseUrl`, and waits
 * until it listens.
 */
export async function startServer(databaseUrl: string, cwd: string): Promise<Server> {
  if (!existsSync(SERVER)) throw new Error(`${SERVER} is missing: build @service-api/http first.`);
  const child = spawn(process.execPath, [SERVER], {
    cwd,
    env: {
      PATH: process.env.PATH ?? "",
      DATABASE_URL: databaseUrl,
      PORT: "0",
      HOST: "127.0.0.1",
      DEMO: "off",
      SHUTDOWN_DRAIN_MS: "0",
      SHUTDOWN_TIMEOUT_MS: "1000",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk;
  });
  const exited = new Promise<void>((resolve) => child.on("close", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let buffered = "";
    child.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk;
      for (const text of buffered.split("\n").slice(0, -1)) {
        const logged = JSON.parse(text) as { msg?: string; url?: string };
        if (logged.msg === "listening") resolve(String(logged.url));
      }
      buffered = buffered.slice(buffered.lastIndexOf("\n") + 1);
    });
    exited.then(() => reject(new Error(`the server exited before listening: ${output}`)));
  });
  const base = `${url.replace(/\/$/, "")}/v1`;
  return {
    call: async (key, method, path, body) => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    },
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
}
