import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO } from "@service-api/provisioning";
import { openStore } from "@service-api/stores";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "./support/http.js";
import { type ServerProcess, spawnServer } from "./support/server-process.js";
import { createTestDatabaseUrl, TEST_STORE, type TestDatabaseUrl } from "./support/test-database.js";

/** Two server processes on one PostgreSQL database, as behind a load balancer. */
describe.runIf(TEST_STORE === "postgres")("two instances on one PostgreSQL database", () => {
  let database: TestDatabaseUrl;
  let directory: string;
  let first: ServerProcess;
  let second: ServerProcess;
  let keys: { app: string; knowledge: string };

  const keysOf = (banner: string) => ({
    app: /Demo app key[^:]*:\s+(app-\S+)/.exec(banner)![1]!,
    knowledge: /Demo knowledge key[^:]*:\s+(ds-\S+)/.exec(banner)![1]!,
  });
  async function bannerOf(server: ServerProcess) {
    for (
      let waited = 0;
      waited < 10_000 && !server.stderr().includes("Get App WebApp Settings");
      waited += 50
    ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return server.stderr();
  }

  beforeAll(async () => {
    database = await createTestDatabaseUrl();
    directory = mkdtempSync(join(tmpdir(), "service-api-two-"));
    // Both start at once on an empty database: one migrates, the other waits for it.
    [first, second] = await Promise.all([
      spawnServer(directory, { DATABASE_URL: database.databaseUrl, DEMO: "auto" }),
      spawnServer(directory, { DATABASE_URL: database.databaseUrl, DEMO: "off" }),
    ]);
    keys = keysOf(await bannerOf(first));
  });
  afterAll(async () => {
    for (const server of [first, second]) {
      server?.child.kill("SIGTERM");
      await server?.exited;
    }
    await database?.drop();
    rmSync(directory, { recursive: true, force: true });
  });

  it("serves through the second what the first wrote", async () => {
    const response = await call(
      second.url,
      "GET",
      `/v1/datasets/${DEMO.datasetId}/documents/${DEMO.documentId}`,
      {
        token: keys.knowledge,
      },
    );
    expect(response.status).toBe(200);
    expect(response.body.name).toBe("getting-started.md");
    const updated = await call(
      first.url,
      "PUT",
      `/v1/conversations/${DEMO.conversationId}/variables/${DEMO.variableId}`,
      {
        token: keys.app,
        body: { value: "Written through the first", user: DEMO.user },
      },
    );
    expect(updated.status).toBe(200);
    const mismatch = await call(
      second.url,
      "PUT",
      `/v1/conversations/${DEMO.conversationId}/variables/${DEMO.variableId}`,
      {
        token: keys.app,
        body: { value: 42, user: DEMO.user },
      },
    );
    expect(mismatch.body.message).toContain("expects string");
  });

  it("leaves one binding per pair when both bind the same tags at once", async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        call(index % 2 ? first.url : second.url, "POST", "/v1/datasets/tags/binding", {
          token: keys.knowledge,
          body: { tag_ids: index % 3 ? DEMO.tagIds : [...DEMO.tagIds].reverse(), target_id: DEMO.datasetId },
        }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(responses.map(() => 204));
    const store = await openStore({ databaseUrl: database.databaseUrl, pool: { max: 1 } });
    const bound = await store.repositories.tags.boundTagIds(DEMO.datasetId);
    await store.close();
    expect(bound.sort()).toEqual([...DEMO.tagIds].sort());
  });

  it("ends concurrent variable updates through both with one whole value", async () => {
    const values = Array.from({ length: 12 }, (_, index) => `${String(index).repeat(2000)}`);
    await Promise.all(
      values.map((value, index) =>
        call(
          index % 2 ? first.url : second.url,
          "PUT",
          `/v1/conversations/${DEMO.conversationId}/variables/${DEMO.variableId}`,
          {
            token: keys.app,
            body: { value, user: DEMO.user },
          },
        ),
      ),
    );
    const store = await openStore({ databaseUrl: database.databaseUrl, pool: { max: 1 } });
    const stored = await store.repositories.conversations.findVariable(DEMO.conversationId, DEMO.variableId);
    await store.close();
    expect(values).toContain(stored?.value);
  });

  it("stops a key revoked through the other at once, though each keeps what keys granted", async () => {
    expect((await call(second.url, "GET", "/v1/site", { token: keys.app })).status).toBe(200);
    first.child.kill("SIGTERM");
    await first.exited;
    first = await spawnServer(directory, { DATABASE_URL: database.databaseUrl, DEMO: "auto" });
    const fresh = keysOf(await bannerOf(first));
    expect((await call(second.url, "GET", "/v1/site", { token: keys.app })).status).toBe(401);
    expect((await call(second.url, "GET", "/v1/site", { token: fresh.app })).status).toBe(200);
  });
});
