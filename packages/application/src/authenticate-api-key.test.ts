import { anApiKey, anApp, aWorkspace } from "@service-api/ports/testing";
import { describe, expect, it } from "vitest";
import { AuthenticateApiKey } from "./authenticate-api-key.js";
import { createWorld } from "./test-support/world.js";

async function setup() {
  const world = createWorld();
  const workspace = aWorkspace();
  await world.workspaces.save(workspace);
  const app = anApp(workspace.id);
  await world.apps.save(app);
  await world.apiKeys.save(anApiKey(workspace.id, "hashed:app-good", { kind: "app", appId: app.id }));
  await world.apiKeys.save(anApiKey(workspace.id, "hashed:ds-good", { kind: "dataset", appId: null }));
  const authenticate = new AuthenticateApiKey(
    world.apiKeys,
    world.apps,
    world.workspaces,
    world.hasher,
    world.clock,
  );
  return { world, workspace, app, authenticate };
}

describe("AuthenticateApiKey", () => {
  it("grants an app key its app", async () => {
    const { authenticate, app } = await setup();
    expect(await authenticate.forApp("app-good")).toEqual({ kind: "app", app });
  });

  it("grants a knowledge key its workspace", async () => {
    const { authenticate, workspace } = await setup();
    expect(await authenticate.forWorkspace("ds-good")).toEqual({
      kind: "dataset",
      workspaceId: workspace.id,
    });
  });

  it("treats a key of the other kind as unknown", async () => {
    const { authenticate } = await setup();
    await expect(authenticate.forWorkspace("app-good")).rejects.toMatchObject({ code: "unauthorized" });
    await expect(authenticate.forApp("ds-good")).rejects.toMatchObject({ code: "unauthorized" });
  });

  it("refuses unknown keys with Dify's message", async () => {
    const { authenticate } = await setup();
    await expect(authenticate.forApp("app-nope")).rejects.toMatchObject({
      code: "unauthorized",
      message: "Access token is invalid",
    });
  });

  it("forbids an app that does not serve its API", async () => {
    for (const change of [{ enableApi: false }, { status: "archived" as const }]) {
      const { world, app, authenticate } = await setup();
      await world.apps.save({ ...app, ...change });
      await expect(authenticate.forApp("app-good")).rejects.toMatchObject({ code: "forbidden" });
    }
  });

  it("forbids both kinds of key once the workspace is archived", async () => {
    const { world, workspace, authenticate } = await setup();
    await world.workspaces.save({ ...workspace, status: "archived" });
    await expect(authenticate.forApp("app-good")).rejects.toMatchObject({ code: "forbidden" });
    await expect(authenticate.forWorkspace("ds-good")).rejects.toMatchObject({ code: "forbidden" });
  });

  it("records a key's use at most once a minute", async () => {
    const { world, authenticate } = await setup();
    await authenticate.forWorkspace("ds-good");
    expect((await world.apiKeys.findByTokenHash("hashed:ds-good"))?.lastUsedAt).toBe(world.clock.now);
    const first = world.clock.now;
    world.clock.now += 30;
    await authenticate.forWorkspace("ds-good");
    expect((await world.apiKeys.findByTokenHash("hashed:ds-good"))?.lastUsedAt).toBe(first);
    world.clock.now += 30;
    await authenticate.forWorkspace("ds-good");
    expect((await world.apiKeys.findByTokenHash("hashed:ds-good"))?.lastUsedAt).toBe(first + 60);
  });
});
