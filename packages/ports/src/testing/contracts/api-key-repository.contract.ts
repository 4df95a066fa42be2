import { describe, expect, it } from "vitest";
import { anApiKey, anApp, aWorkspace } from "../fixtures.js";
import { type OpenStore, useStore } from "./use-store.js";

export function describeApiKeyRepositoryContract(openStore: OpenStore): void {
  describe("ApiKeyRepository contract", () => {
    const repositories = useStore(openStore);

    async function seed() {
      const { workspaces, apps } = repositories();
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      const app = anApp(workspace.id);
      await apps.save(app);
      return { workspace, app };
    }

    it("finds app and dataset keys by their token hash", async () => {
      const { apiKeys } = repositories();
      const { workspace, app } = await seed();
      const appKey = anApiKey(workspace.id, "hash-app", { kind: "app", appId: app.id });
      const datasetKey = anApiKey(workspace.id, "hash-ds", { kind: "dataset", appId: null });
      await apiKeys.save(appKey);
      await apiKeys.save(datasetKey);
      expect(await apiKeys.findByTokenHash("hash-app")).toEqual(appKey);
      expect(await apiKeys.findByTokenHash("hash-ds")).toEqual(datasetKey);
      expect(await apiKeys.findByTokenHash("hash-unknown")).toBeUndefined();
    });

    it("refuses a second key with the same token hash", async () => {
      const { apiKeys } = repositories();
      const { workspace } = await seed();
      await apiKeys.save(anApiKey(workspace.id, "same", { kind: "dataset", appId: null }));
      await expect(
        apiKeys.save(anApiKey(workspace.id, "same", { kind: "dataset", appId: null })),
      ).rejects.toThrow();
    });

    it("records the last use of a key", async () => {
      const { apiKeys } = repositories();
      const { workspace } = await seed();
      const key = anApiKey(workspace.id, "hash", { kind: "dataset", appId: null });
      await apiKeys.save(key);
      await apiKeys.recordUse(key.id, 1_800_000_000);
      expect((await apiKeys.findByTokenHash("hash"))?.lastUsedAt).toBe(1_800_000_000);
      await expect(apiKeys.recordUse("missing", 1)).resolves.toBeUndefined();
    });

    it("lists keys oldest first, by workspace or by app", async () => {
      const { apiKeys, workspaces, apps } = repositories();
      const { workspace, app } = await seed();
      const other = aWorkspace();
      await workspaces.save(other);
      const otherApp = anApp(other.id);
      await apps.save(otherApp);
      const newer = anApiKey(workspace.id, "h1", { kind: "dataset", appId: null }, { createdAt: 20 });
      const older = anApiKey(workspace.id, "h2", { kind: "app", appId: app.id }, { createdAt: 10 });
      const foreign = anApiKey(other.id, "h3", { kind: "app", appId: otherApp.id }, { createdAt: 5 });
      for (const key of [newer, older, foreign]) await apiKeys.save(key);
      expect(await apiKeys.list()).toEqual([foreign, older, newer]);
      expect(await apiKeys.list({ workspaceId: workspace.id })).toEqual([older, newer]);
      expect(await apiKeys.list({ appId: app.id })).toEqual([older]);
    });

    it("deletes a key, which is then not found", async () => {
      const { apiKeys } = repositories();
      const { workspace } = await seed();
      const key = anApiKey(workspace.id, "gone", { kind: "dataset", appId: null });
      await apiKeys.save(key);
      expect(await apiKeys.delete(key.id)).toBe(true);
      expect(await apiKeys.findByTokenHash("gone")).toBeUndefined();
      expect(await apiKeys.delete(key.id)).toBe(false);
    });

    it("changes its access revision when a key, an app or a workspace changes, not on a key's use", async () => {
      const { apiKeys, apps, workspaces } = repositories();
      const { workspace, app } = await seed();
      const key = anApiKey(workspace.id, "hash-revision", { kind: "app", appId: app.id });
      await apiKeys.save(key);
      // A store may hear of a change a moment after it commits (PostgreSQL's notifications): let the
      // revision settle before taking it as the baseline, and wait for each change to show.
      const settle = () => new Promise((resolve) => setTimeout(resolve, 150));
      await settle();
      const seen = [await apiKeys.accessRevision()];
      const expectChanged = async () => {
        await expect.poll(() => apiKeys.accessRevision(), { timeout: 2_000 }).not.toBe(seen.at(-1));
        const revision = await apiKeys.accessRevision();
        expect(seen).not.toContain(revision);
        seen.push(revision);
      };

      expect(await apiKeys.accessRevision()).toBe(seen[0]);
      await apiKeys.recordUse(key.id, 1_800_000_000);
      await settle();
      expect(await apiKeys.accessRevision()).toBe(seen[0]);
      await apps.save({ ...app, enableApi: false });
      await expectChanged();
      await workspaces.save({ ...workspace, status: "archived" });
      await expectChanged();
      await apiKeys.save({ ...key, displayPrefix: "app-…moved" });
      await expectChanged();
      await apiKeys.delete(key.id);
      await expectChanged();
    });
  });
}
