import { describe, expect, it } from "vitest";
import { anApp, anEndUser, aWorkspace } from "../fixtures.js";
import { type OpenStore, useStore } from "./use-store.js";

export function describeEndUserRepositoryContract(openStore: OpenStore): void {
  describe("EndUserRepository contract", () => {
    const repositories = useStore(openStore);
    /** Two apps of one workspace, saved. */
    const twoApps = async () => {
      const { workspaces, apps } = repositories();
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      const saved = [anApp(workspace.id), anApp(workspace.id)] as const;
      for (const app of saved) await apps.save(app);
      return saved;
    };

    it("finds an end user by app and user string, exactly", async () => {
      const { endUsers } = repositories();
      const [app, other] = await twoApps();
      const endUser = anEndUser(app.id, { sessionId: "Alice" });
      await endUsers.save(endUser);
      expect(await endUsers.findBySessionId(app.id, "Alice")).toEqual(endUser);
      expect(await endUsers.findBySessionId(app.id, "alice")).toBeUndefined();
      expect(await endUsers.findBySessionId(other.id, "Alice")).toBeUndefined();
    });

    it("finds an end user by id", async () => {
      const { endUsers } = repositories();
      const [app] = await twoApps();
      const endUser = anEndUser(app.id);
      await endUsers.save(endUser);
      expect(await endUsers.findById(endUser.id)).toEqual(endUser);
      expect(await endUsers.findById(anEndUser(app.id).id)).toBeUndefined();
    });

    it("never moves an end user: a save naming another app's end user writes nothing, answering why", async () => {
      const { endUsers } = repositories();
      const [app, other] = await twoApps();
      const endUser = anEndUser(app.id, { sessionId: "Alice" });
      expect(await endUsers.save(endUser)).toBeUndefined();
      expect(await endUsers.save({ ...endUser, appId: other.id })).toBe("owned_elsewhere");
      expect(await endUsers.findById(endUser.id)).toEqual(endUser);
      expect(await endUsers.findBySessionId(other.id, "Alice")).toBeUndefined();
    });
  });
}
