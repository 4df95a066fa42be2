import { aVariable } from "@service-api/ports/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "./support/http.js";
import { restartOn } from "./support/restart.js";
import { type SeededWorkspace, seedWorkspace } from "./support/seed.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
let world: SeededWorkspace;

beforeAll(async () => {
  server = await startTestServer();
  world = await seedWorkspace(server.store.repositories);
});
afterAll(() => server.stop());

describe("a restart", () => {
  it("keeps updated variables and tag bindings", async () => {
    const variable = aVariable(world.conversation.id, { valueType: "object", value: { a: 1 } });
    await server.store.repositories.conversations.saveVariable(variable);
    const path = `/v1/conversations/${world.conversation.id}/variables/${variable.id}`;
    const appKey = world.apps["advanced-chat"].key;
    expect(
      (
        await call(server.url, "PUT", path, {
          token: appKey,
          body: { value: { kept: [1, 2] }, user: "alice" },
        })
      ).status,
    ).toBe(200);
    const binding = { tag_ids: [world.knowledgeTags[0]!.id], target_id: world.dataset.id };
    expect(
      (
        await call(server.url, "POST", "/v1/datasets/tags/binding", {
          token: world.datasetKey,
          body: binding,
        })
      ).status,
    ).toBe(204);

    await server.running.close();
    const restarted = await restartOn(server.databaseUrl);
    try {
      expect(await restarted.variable(world.conversation.id, variable.id)).toMatchObject({
        value: { kept: [1, 2] },
      });
      const mismatch = await call(restarted.url, "PUT", path, {
        token: appKey,
        body: { value: "text", user: "alice" },
      });
      expect(mismatch.body.message).toBe(
        `Type mismatch: variable '${variable.name}' expects object, but got string type`,
      );
      expect(await server.store.repositories.tags.boundTagIds(world.dataset.id)).toEqual([
        world.knowledgeTags[0]!.id,
      ]);
    } finally {
      await restarted.stop();
    }
  });
});
