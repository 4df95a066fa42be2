import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { aTag, aVariable } from "@service-api/ports/testing";
import { openStore } from "@service-api/stores";
import { afterAll, describe, expect, it } from "vitest";
import { call } from "./support/http.js";
import { seedWorkspace } from "./support/seed.js";
import { spawnServer } from "./support/server-process.js";
import { TEST_STORE } from "./support/test-database.js";

const directory = mkdtempSync(join(tmpdir(), "service-api-crash-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe.runIf(TEST_STORE === "sqlite")("a crash of the server process", () => {
  it("loses no write it acknowledged: killed with SIGKILL mid-load, restarted on the same file", async () => {
    const databaseUrl = `file:${join(directory, "crash.sqlite")}`;
    const seeding = await openStore({ databaseUrl });
    const world = await seedWorkspace(seeding.repositories);
    const tags = Array.from({ length: 400 }, (_, index) =>
      aTag(world.workspace.id, { name: `tag-${index}` }),
    );
    for (const tag of tags) await seeding.repositories.tags.save(tag);
    const variables = Array.from({ length: 6 }, (_, index) =>
      aVariable(world.conversation.id, { name: `v${index}`, valueType: "number", value: 0 }),
    );
    for (const variable of variables) await seeding.repositories.conversations.saveVariable(variable);
    await seeding.close();

    const server = await spawnServer(directory, { DATABASE_URL: databaseUrl });
    const boundAcknowledged: string[] = [];
    const lastAcknowledged = new Map<string, number>();
    let killed = false;
    const bindings = (async () => {
      for (const tag of tags) {
        if (killed) return;
        const response = await call(server.url, "POST", "/v1/datasets/tags/binding", {
          token: world.datasetKey,
          body: { tag_ids: [tag.id], target_id: world.dataset.id },
        }).catch(() => undefined);
        if (response?.status === 204) boundAcknowledged.push(tag.id);
      }
    })();
    const updates = variables.map(async (variable) => {
      for (let value = 1; !killed; value++) {
        const response = await call(
          server.url,
          "PUT",
          `/v1/conversations/${world.conversation.id}/variables/${variable.id}`,
          { token: world.apps["advanced-chat"].key, body: { value, user: "alice" } },
        ).catch(() => undefined);
        if (response?.status === 200) lastAcknowledged.set(variable.id, value);
      }
    });
    while (boundAcknowledged.length < 150) await new Promise((resolve) => setTimeout(resolve, 5));
    server.child.kill("SIGKILL");
    killed = true;
    await server.exited;
    await Promise.all([bindings, ...updates]);

    const restarted = await spawnServer(directory, { DATABASE_URL: databaseUrl });
    try {
      expect((await call(restarted.url, "GET", "/readyz")).status).toBe(200);
      const reading = await openStore({ databaseUrl });
      const bound = new Set(await reading.repositories.tags.boundTagIds(world.dataset.id));
      expect(boundAcknowledged.filter((id) => !bound.has(id))).toEqual([]);
      for (const variable of variables) {
        const stored = await reading.repositories.conversations.findVariable(
          world.conversation.id,
          variable.id,
        );
        // The last acknowledged value, or the one after it if that was written but not yet answered.
        const acknowledged = lastAcknowledged.get(variable.id) ?? 0;
        expect([acknowledged, acknowledged + 1]).toContain(stored?.value);
      }
      await reading.close();
    } finally {
      restarted.child.kill("SIGTERM");
      await restarted.exited;
    }
  });
});
