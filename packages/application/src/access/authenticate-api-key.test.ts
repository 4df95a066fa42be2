import { StoreUnavailableError } from "@service-api/domain";
import { anApiKey, anApp, aWorkspace } from "@service-api/ports/testing";
import { describe, expect, it } from "vitest";
import { createWorld } from "../test-support/world.js";
import { AuthenticateApiKey, GRANTS_KEPT } from "./authenticate-api-key.js";

/** `useRecordFailed`, given, is told of failed use records; otherwise they are kept in `useRecordFailures`. */
async function setup(useRecordFailed?: (error: unknown) => void) {
  const world = createWorld();
  const workspace = aWorkspace();
  await world.workspaces.save(workspace);
  const app = anApp(workspace.id);
  await world.apps.save(app);
  await world.apiKeys.save(anApiKey(workspace.id, "hashed:app-good", { kind: "app", appId: app.id }));
  await world.apiKeys.save(anApiKey(workspace.id, "hashed:ds-good", { kind: "dataset", appId: null }));
  const useRecordFailures: unknown[] = [];
  const authenticate = new AuthenticateApiKey(
    world.apiKeys,
    world.apps,
    world.workspaces,
    world.hasher,
    world.clock,
    useRecordFailed ?? ((error) => useRecordFailures.push(error)),
  );
  return { world, workspace, app, authenticate, useRecordFailures };
}

describe("AuthenticateApiKey", () => {
  it("grants an app key its app", async () => {
    const { authenticate, app } = await setup();
    expect(await authenticate.forApp("app-good")).toEqual({ kind: "app", app, keyId: expect.any(String) });
  });

  it("grants a knowledge key its workspace", async () => {
    const { authenticate, workspace, world } = await setup();
    expect(await authenticate.forWorkspace("ds-good")).toEqual({
      kind: "dataset",
      workspaceId: workspace.id,
      keyId: (await world.apiKeys.findByTokenHash("hashed:ds-good"))?.id,
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

  it("never waits for the record of a key's use: it grants access while the write waits or fails", async () => {
    const { world, workspace, authenticate, useRecordFailures } = await setup();
    let recorded: (() => void) | undefined;
    world.apiKeys.recordUse = () =>
      new Promise<void>((resolve) => {
        recorded = resolve;
      });
    expect(await authenticate.forWorkspace("ds-good")).toMatchObject({ workspaceId: workspace.id });
    expect(recorded).toBeDefined();
    recorded?.();

    world.clock.now += 60;
    world.apiKeys.recordUse = async () => {
      throw new StoreUnavailableError();
    };
    expect(await authenticate.forWorkspace("ds-good")).toMatchObject({ workspaceId: workspace.id });
    world.clock.now += 60;
    const bug = new Error("not an outage");
    world.apiKeys.recordUse = async () => {
      throw bug;
    };
    expect(await authenticate.forWorkspace("ds-good")).toMatchObject({ workspaceId: workspace.id });
    await Promise.resolve();
    // An outage the store has reported itself; anything else is told.
    expect(useRecordFailures).toEqual([bug]);
  });

  it("drops a failure of the reporter of a failed use record: no unhandled rejection ends the process", async () => {
    const { world, workspace, authenticate } = await setup(() => {
      throw new Error("the reporter failed");
    });
    world.apiKeys.recordUse = async () => {
      throw new Error("not an outage");
    };
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      expect(await authenticate.forWorkspace("ds-good")).toMatchObject({ workspaceId: workspace.id });
      await new Promise((resolve) => setTimeout(resolve, 10));
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
    expect(unhandled).toEqual([]);
  });

  describe("keeping grants", () => {
    /** Counts the reads of keys, apps and workspaces. */
    function countReads(world: ReturnType<typeof createWorld>) {
      const reads = { keys: 0, apps: 0, workspaces: 0 };
      const { apiKeys, apps, workspaces } = world;
      const findKey = apiKeys.findByTokenHash.bind(apiKeys);
      const findApp = apps.findById.bind(apps);
      const findWorkspace = workspaces.findById.bind(workspaces);
      apiKeys.findByTokenHash = (hash) => {
        reads.keys += 1;
        return findKey(hash);
      };
      apps.findById = (id) => {
        reads.apps += 1;
        return findApp(id);
      };
      workspaces.findById = (id) => {
        reads.workspaces += 1;
        return findWorkspace(id);
      };
      return reads;
    }

    it("reads a key, its app and its workspace once while nothing changes", async () => {
      const { world, app, authenticate } = await setup();
      const reads = countReads(world);
      for (let i = 0; i < 3; i++) {
        expect(await authenticate.forApp("app-good")).toEqual({
          kind: "app",
          app,
          keyId: expect.any(String),
        });
        await authenticate.forWorkspace("ds-good");
      }
      expect(reads).toEqual({ keys: 2, apps: 1, workspaces: 2 });
      expect(authenticate.grantLookups).toEqual({ kept: 4, read: 2 });
    });

    it("sees a deleted key, a changed app and an archived workspace at the next request", async () => {
      const { world, workspace, app, authenticate } = await setup();
      await authenticate.forApp("app-good");
      await authenticate.forWorkspace("ds-good");
      await world.apps.save({ ...app, enableApi: false });
      await expect(authenticate.forApp("app-good")).rejects.toMatchObject({ code: "forbidden" });
      await world.apps.save(app);
      await authenticate.forApp("app-good");
      await world.workspaces.save({ ...workspace, status: "archived" });
      await expect(authenticate.forWorkspace("ds-good")).rejects.toMatchObject({ code: "forbidden" });
      await world.workspaces.save(workspace);
      await authenticate.forWorkspace("ds-good");
      const key = await world.apiKeys.findByTokenHash("hashed:ds-good");
      await world.apiKeys.delete(key!.id);
      await expect(authenticate.forWorkspace("ds-good")).rejects.toMatchObject({ code: "unauthorized" });
    });

    it("keeps a kept grant to its kind of key", async () => {
      const { authenticate } = await setup();
      await authenticate.forApp("app-good");
      await expect(authenticate.forWorkspace("app-good")).rejects.toMatchObject({ code: "unauthorized" });
    });

    it("keeps no more than GRANTS_KEPT grants, dropping the oldest", async () => {
      const { world, workspace, authenticate } = await setup();
      for (let i = 0; i < GRANTS_KEPT; i++) {
        await world.apiKeys.save(anApiKey(workspace.id, `hashed:ds-${i}`, { kind: "dataset", appId: null }));
      }
      await authenticate.forWorkspace("ds-good");
      const reads = countReads(world);
      await authenticate.forWorkspace("ds-good");
      expect(reads.keys).toBe(0);
      for (let i = 0; i < GRANTS_KEPT; i++) await authenticate.forWorkspace(`ds-${i}`);
      expect(reads.keys).toBe(GRANTS_KEPT);
      await authenticate.forWorkspace("ds-good");
      expect(reads.keys).toBe(GRANTS_KEPT + 1);
    });
  });
});
