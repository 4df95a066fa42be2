import { describe, expect, it } from "vitest";
import { DEMO, demoWorkspaceFile } from "../demo/demo-workspace.js";
import { LoadDemoWorkspace } from "../demo/load-demo-workspace.js";
import { createProvisioningWorld } from "../test-world.test-support.js";
import type { KeyTarget } from "./issue-api-key.js";
import { RevokeApiKey } from "./revoke-api-key.js";

describe("key administration", () => {
  it("issues app and knowledge keys, storing only their hash", async () => {
    const { importData, issueKey, store, hasher } = createProvisioningWorld();
    await importData.execute(demoWorkspaceFile());
    const app = await issueKey.execute({ appId: DEMO.chatAppId });
    const knowledge = await issueKey.execute({ workspaceId: DEMO.workspaceId });
    expect(app.token).toMatch(/^app-/);
    expect(knowledge.token).toMatch(/^ds-/);
    expect(await store.repositories.apiKeys.findByTokenHash(hasher.hash(app.token))).toMatchObject({
      kind: "app",
      appId: DEMO.chatAppId,
      workspaceId: DEMO.workspaceId,
      displayPrefix: app.token.slice(0, 8),
    });
    expect(JSON.stringify(await store.repositories.apiKeys.list())).not.toContain(app.token);
  });

  it("refuses to issue a key for a missing app or workspace", async () => {
    const { issueKey } = createProvisioningWorld();
    await expect(issueKey.execute({ appId: DEMO.chatAppId })).rejects.toMatchObject({ code: "not_found" });
    await expect(issueKey.execute({ workspaceId: DEMO.workspaceId })).rejects.toMatchObject({
      code: "not_found",
    });
  });

  it("refuses a call given no target object with invalid_param, issuing nothing", async () => {
    const { importData, issueKey, store } = createProvisioningWorld();
    await importData.execute(demoWorkspaceFile());
    for (const target of [undefined, null, "x"]) {
      await expect(issueKey.execute(target as unknown as KeyTarget)).rejects.toMatchObject({
        code: "invalid_param",
        message: "target: must be an object.",
      });
    }
    expect(await store.repositories.apiKeys.list()).toEqual([]);
  });

  it("revokes a key by id, and says when there is none", async () => {
    const { importData, issueKey, store } = createProvisioningWorld();
    await importData.execute(demoWorkspaceFile());
    const { key } = await issueKey.execute({ workspaceId: DEMO.workspaceId });
    const revoke = new RevokeApiKey(store.repositories.apiKeys);
    await revoke.execute(key.id);
    expect(await store.repositories.apiKeys.list()).toEqual([]);
    await expect(revoke.execute(key.id)).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("LoadDemoWorkspace", () => {
  it("loads the demo and issues fresh keys each time, revoking the previous ones", async () => {
    const { importData, issueKey, store, hasher } = createProvisioningWorld();
    const load = new LoadDemoWorkspace(importData, issueKey, store.repositories);
    const first = await load.execute();
    const second = await load.execute();
    expect(second.appKey).not.toBe(first.appKey);
    const keys = store.repositories.apiKeys;
    expect(await keys.findByTokenHash(hasher.hash(first.appKey))).toBeUndefined();
    expect(await keys.findByTokenHash(hasher.hash(first.knowledgeKey))).toBeUndefined();
    expect(await keys.findByTokenHash(hasher.hash(second.appKey))).toMatchObject({ appId: DEMO.chatAppId });
    expect(await keys.findByTokenHash(hasher.hash(second.knowledgeKey))).toMatchObject({
      workspaceId: DEMO.workspaceId,
    });
    expect((await store.repositories.workspaces.list()).map((workspace) => workspace.id)).toEqual([
      DEMO.workspaceId,
    ]);
    expect([first.loaded, second.loaded]).toEqual([true, false]);
  });

  it("keeps a stored demo as it is: what was changed since stays changed", async () => {
    const { importData, issueKey, store } = createProvisioningWorld();
    const load = new LoadDemoWorkspace(importData, issueKey, store.repositories);
    await load.execute();
    const { documents, tags } = store.repositories;
    const document = (await documents.findInDataset(DEMO.datasetId, DEMO.documentId))!;
    await documents.save({ ...document, archived: true, archivedAt: 1, archivedBy: DEMO.memberId });
    // A demo tag deleted and made again: its name is now another id's, which the file's would clash with.
    const product = (await tags.findByIds([DEMO.tagIds[0]]))[0]!;
    expect(await tags.delete(DEMO.workspaceId, "knowledge", product.id)).toBe(true);
    expect(await tags.create({ ...product, id: "0d3f5a10-6c2e-4b7d-9a41-5e8c2f1b7aff" })).toBe(true);

    const again = await load.execute();
    expect(again.loaded).toBe(false);
    expect((await documents.findInDataset(DEMO.datasetId, DEMO.documentId))?.archived).toBe(true);
    expect((await tags.findByIds([DEMO.tagIds[0]]))[0]).toBeUndefined();
  });
});
