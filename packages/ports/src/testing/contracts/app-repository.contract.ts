import { describe, expect, it } from "vitest";
import { anApp, aSite, aWorkspace } from "../fixtures.js";
import { type OpenStore, useStore } from "./use-store.js";

export function describeAppRepositoryContract(openStore: OpenStore): void {
  describe("AppRepository contract", () => {
    const repositories = useStore(openStore);

    async function seedApp(over: Parameters<typeof anApp>[1] = {}) {
      const { workspaces, apps } = repositories();
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      const app = anApp(workspace.id, over);
      await apps.save(app);
      return app;
    }

    it("finds an app by id, with every field", async () => {
      const { apps } = repositories();
      const app = await seedApp({ mode: "completion", enableApi: false, status: "archived" });
      expect(await apps.findById(app.id)).toEqual(app);
      expect(await apps.findById(anApp("w").id)).toBeUndefined();
    });

    it("finds an app's site, with every field", async () => {
      const { apps } = repositories();
      const app = await seedApp();
      const site = aSite(app.id, {
        iconType: "image",
        icon: "file-1",
        inputPlaceholder: "Ask…",
        chatColorThemeInverted: true,
      });
      await apps.saveSite(site);
      expect(await apps.findSite(app.id)).toEqual(site);
    });

    it("has no site for an app without one", async () => {
      const { apps } = repositories();
      const app = await seedApp();
      expect(await apps.findSite(app.id)).toBeUndefined();
    });

    it("keeps one site per app, replacing it when saved again", async () => {
      const { apps } = repositories();
      const app = await seedApp();
      await apps.saveSite(aSite(app.id, { title: "First" }));
      await apps.saveSite(aSite(app.id, { title: "Second" }));
      expect((await apps.findSite(app.id))?.title).toBe("Second");
    });

    it("lists a workspace's apps by name", async () => {
      const { apps } = repositories();
      const zeta = await seedApp({ name: "Zeta" });
      const alpha = anApp(zeta.workspaceId, { name: "Alpha" });
      await apps.save(alpha);
      expect(await apps.listInWorkspace(zeta.workspaceId)).toEqual([alpha, zeta]);
    });

    it("never moves an app: a save naming another workspace's app writes nothing, answering why", async () => {
      const { workspaces, apps } = repositories();
      const app = await seedApp();
      const other = aWorkspace();
      await workspaces.save(other);
      expect(await apps.save({ ...app, name: "Renamed" })).toBeUndefined();
      expect(await apps.save({ ...app, workspaceId: other.id, name: "Moved" })).toBe("owned_elsewhere");
      expect(await apps.findById(app.id)).toEqual({ ...app, name: "Renamed" });
      expect(await apps.listInWorkspace(other.id)).toEqual([]);
    });
  });
}
