import { afterEach, describe, expect, it } from "vitest";
import { call } from "./support/http.js";
import { seedWorkspace } from "./support/seed.js";
import { runSql, TEST_STORE } from "./support/test-database.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

// A PostgreSQL that only reads: a standby after a failover, or `default_transaction_read_only` set
// on the database. Reads go on; writes are an outage (503), never a 500.

let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** Makes the server's database read-only for every connection opened from now on, and ends the open ones. */
async function makeReadOnly(databaseUrl: string) {
  const name = new URL(databaseUrl).pathname.slice(1);
  await runSql(databaseUrl, `alter database ${name} set default_transaction_read_only = on`, []);
  await runSql(
    databaseUrl,
    "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
    [],
  );
}

/** The answer once the pool has let go of the connections ended under it (each such call is a 503). */
async function settled(request: () => ReturnType<typeof call>) {
  for (let attempt = 0; ; attempt++) {
    const response = await request();
    if (response.status !== 503 || attempt >= 5) return response;
  }
}

describe.runIf(TEST_STORE === "postgres")("a database that only reads", () => {
  it("serves reads, a key's first use included, and answers writes 503 with Retry-After", async () => {
    server = await startTestServer();
    const world = await seedWorkspace(server.store.repositories);
    await makeReadOnly(server.databaseUrl);

    // The key was never used: its use is due to be recorded, which cannot be written now.
    const tags = await settled(() =>
      call(server!.url, "GET", "/v1/datasets/tags", { token: world.datasetKey }),
    );
    expect(tags.status).toBe(200);
    const created = await call(server.url, "POST", "/v1/datasets/tags", {
      token: world.datasetKey,
      body: { name: "written while read-only" },
    });
    expect(created.status).toBe(503);
    expect(created.headers.get("retry-after")).toBe("1");
    expect(created.body).toMatchObject({ status: 503, code: "service_unavailable" });
    expect(server.logText()).not.toContain('"status":500');
  });
});
