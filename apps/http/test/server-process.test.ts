import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "@service-api/stores";
import { afterEach, describe, expect, it } from "vitest";
import { eventually } from "./support/load.js";
import { seedWorkspace } from "./support/seed.js";
import { type ServerProcess, spawnServer } from "./support/server-process.js";
import { createTestDatabaseUrl, TEST_STORE } from "./support/test-database.js";

const directories: string[] = [];
const processes: ServerProcess[] = [];
function workingDirectory() {
  const directory = mkdtempSync(join(tmpdir(), "service-api-process-"));
  directories.push(directory);
  return directory;
}
afterEach(() => {
  for (const { child } of processes.splice(0)) child.kill("SIGKILL");
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/** Sends the request line, headers and the first part of the body; the rest waits for `finish`. */
function partialRequest(url: string, head: string, body: string, sentBytes: number) {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let response = "";
  socket.on("data", (chunk) => {
    response += chunk.toString("utf8");
  });
  const ended = new Promise<string>((resolve) => socket.on("close", () => resolve(response)));
  socket.write(
    `${head}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body.slice(0, sentBytes)}`,
  );
  return { finish: () => socket.write(body.slice(sentBytes)), ended };
}

describe("the server process", () => {
  it.runIf(TEST_STORE === "sqlite")(
    "starts on the embedded SQLite default under ./data and answers /healthz",
    async () => {
      const cwd = workingDirectory();
      const server = await spawnServer(cwd, {});
      processes.push(server);
      expect(server.lines.find((line) => line.msg === "listening")).toMatchObject({ database: "sqlite" });
      const response = await fetch(`${server.url}/healthz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: "ok" });
      expect(existsSync(join(cwd, "data", "service-api.sqlite"))).toBe(true);
    },
  );

  it.runIf(TEST_STORE === "sqlite" && existsSync("/proc/self/maps"))(
    "maps the SQLite file into memory when SQLITE_MMAP_SIZE asks, and serves from it",
    async () => {
      const cwd = workingDirectory();
      const path = join(cwd, "mapped.sqlite");
      // Seeded and closed first, so its pages are in the file itself, not in a write-ahead log.
      const seeding = await openStore({ databaseUrl: path });
      const world = await seedWorkspace(seeding.repositories);
      await seeding.close();
      const server = await spawnServer(cwd, { DATABASE_URL: path, SQLITE_MMAP_SIZE: String(2 ** 24) });
      processes.push(server);
      const response = await fetch(`${server.url}/v1/datasets/${world.dataset.id}/metadata`, {
        headers: { authorization: `Bearer ${world.datasetKey}` },
      });
      expect(response.status).toBe(200);
      const mapped = readFileSync(`/proc/${server.child.pid}/maps`, "utf8").split("\n");
      expect(mapped.some((line) => line.endsWith(` ${path}`))).toBe(true);
    },
  );

  it("finishes an in-flight request on SIGTERM, refuses new ones, closes the database and exits 0", async () => {
    const database = await createTestDatabaseUrl();
    const server = await spawnServer(workingDirectory(), { DATABASE_URL: database.databaseUrl });
    processes.push(server);
    expect(server.lines.find((line) => line.msg === "listening")).toMatchObject({ database: TEST_STORE });
    const seeding = await openStore({ databaseUrl: database.databaseUrl, pool: { max: 2 } });
    const world = await seedWorkspace(seeding.repositories);

    const body = JSON.stringify({ value: "finished during shutdown", user: "alice" });
    const request = partialRequest(
      server.url,
      [
        `PUT /v1/conversations/${world.conversation.id}/variables/${world.variable.id} HTTP/1.1`,
        `Host: 127.0.0.1`,
        `Authorization: Bearer ${world.apps["advanced-chat"].key}`,
        "Content-Type: application/json",
      ].join("\r\n"),
      body,
      10,
    );
    // Time for the server to read the headers and start the handler, which then waits for the body:
    // only then is the request in flight (a connection still sending headers counts as idle).
    await new Promise((resolve) => setTimeout(resolve, 500));
    server.child.kill("SIGTERM");
    await server.waitForLine((line) => line.msg === "shutting down");
    // Its drain is 0 ms here: new connections are refused once it has run.
    await eventually(() =>
      fetch(`${server.url}/healthz`).then(
        () => false,
        () => true,
      ),
    );

    request.finish();
    const response = await request.ended;
    expect(response).toMatch(/^HTTP\/1\.1 200 /);
    expect(response).toContain('"value":"finished during shutdown"');
    const { code } = await server.exited;
    expect(code).toBe(0);
    const messages = server.lines.map((line) => line.msg);
    expect(messages.indexOf("stopped")).toBeGreaterThan(messages.indexOf("shutting down"));
    expect(
      (await seeding.repositories.conversations.findVariable(world.conversation.id, world.variable.id))
        ?.value,
    ).toBe("finished during shutdown");
    await seeding.close();
    await database.drop();
  });

  it.runIf(TEST_STORE === "sqlite")("stops on SIGINT too", async () => {
    const server = await spawnServer(workingDirectory(), {});
    processes.push(server);
    server.child.kill("SIGINT");
    expect((await server.exited).code).toBe(0);
    expect(server.lines.map((line) => line.msg)).toEqual(
      expect.arrayContaining(["shutting down", "stopped"]),
    );
  });

  it.runIf(TEST_STORE === "sqlite")(
    "refuses a bad configuration with a clear message and exit code 1",
    async () => {
      await expect(
        spawnServer(workingDirectory(), { PORT: "not-a-port", LOG_LEVEL: "loud" }),
      ).rejects.toThrow(/Invalid configuration: PORT: .*LOG_LEVEL: /);
    },
  );

  it.runIf(TEST_STORE === "sqlite")(
    "serves from WORKERS processes, loads the demo once, and stops them all",
    async () => {
      const server = await spawnServer(workingDirectory(), { WORKERS: "2", DEMO: "auto" });
      processes.push(server);
      await server.waitForLine((line) => line.workers === 2);
      for (
        let waited = 0;
        waited < 5000 && !server.stderr().includes("Get App WebApp Settings");
        waited += 50
      ) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const keys = server.stderr().match(/app-[A-Za-z0-9]{40}/g) ?? [];
      expect(new Set(keys).size).toBe(1);
      const statuses = await Promise.all(
        Array.from({ length: 8 }, () =>
          fetch(`${server.url}/v1/site`, { headers: { authorization: `Bearer ${keys[0]}` } }),
        ),
      );
      expect(statuses.map((response) => response.status)).toEqual(statuses.map(() => 200));
      // A request's log line is written after its answer: wait for the eight.
      const requestLines = () => server.lines.filter((line) => line.msg === "request").length;
      for (let waited = 0; waited < 5000 && requestLines() < 8; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const workerPids = new Set(
        server.lines.filter((line) => line.msg === "request").map((line) => Number(line.pid)),
      );
      expect(workerPids.size).toBeGreaterThanOrEqual(1);
      for (const pid of workerPids) expect(pid).not.toBe(server.child.pid);
      server.child.kill("SIGTERM");
      expect((await server.exited).code).toBe(0);
      for (const pid of workerPids) expect(() => process.kill(pid, 0)).toThrow();
    },
  );

  it.runIf(TEST_STORE === "sqlite")(
    "replaces a worker that dies, logging its pid apart from the primary's",
    async () => {
      const server = await spawnServer(workingDirectory(), { WORKERS: "2" });
      processes.push(server);
      await server.waitForLine((line) => line.workers === 2);
      expect((await fetch(`${server.url}/v1/site`)).status).toBe(401);
      const request = await server.waitForLine((line) => line.msg === "request");
      const killed = Number(request.pid);
      expect(killed).not.toBe(server.child.pid);
      process.kill(killed, "SIGKILL");
      const replaced = await server.waitForLine((line) => line.msg === "worker exited; starting another");
      // One `pid` per line (JSON parsers keep one of two): the primary's, as on every line it writes.
      expect(replaced).toMatchObject({ pid: server.child.pid, workerPid: killed, signal: "SIGKILL" });
      server.child.kill("SIGTERM");
      expect((await server.exited).code).toBe(0);
    },
  );
});
