import { describe, expect, it } from "vitest";
import { aMember, aWorkspace } from "../fixtures.js";
import { type OpenStore, useStore } from "./use-store.js";

export function describeWorkspaceRepositoryContract(openStore: OpenStore): void {
  describe("WorkspaceRepository contract", () => {
    const repositories = useStore(openStore);

    it("finds a saved workspace by id and misses an unknown one", async () => {
      const { workspaces } = repositories();
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      expect(await workspaces.findById(workspace.id)).toEqual(workspace);
      expect(await workspaces.findById(aWorkspace().id)).toBeUndefined();
    });

    it("replaces a workspace saved again", async () => {
      const { workspaces } = repositories();
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      await workspaces.save({ ...workspace, status: "archived", name: "Renamed" });
      expect(await workspaces.findById(workspace.id)).toEqual({
        ...workspace,
        status: "archived",
        name: "Renamed",
      });
    });

    it("finds a member only within its own workspace", async () => {
      const { workspaces } = repositories();
      const [mine, other] = [aWorkspace(), aWorkspace()];
      await workspaces.save(mine);
      await workspaces.save(other);
      const member = aMember(mine.id);
      await workspaces.saveMember(member);
      expect(await workspaces.findMember(mine.id, member.id)).toEqual(member);
      expect(await workspaces.findMember(other.id, member.id)).toBeUndefined();
    });

    it("lists workspaces and a workspace's members by name", async () => {
      const { workspaces } = repositories();
      const [zeta, alpha] = [aWorkspace({ name: "Zeta" }), aWorkspace({ name: "Alpha" })];
      await workspaces.save(zeta);
      await workspaces.save(alpha);
      const [grace, ada] = [aMember(zeta.id, { name: "Grace" }), aMember(zeta.id, { name: "Ada" })];
      await workspaces.saveMember(grace);
      await workspaces.saveMember(ada);
      await workspaces.saveMember(aMember(alpha.id));
      expect(await workspaces.list()).toEqual([alpha, zeta]);
      const lower = aWorkspace({ name: "alpha" });
      await workspaces.save(lower);
      expect((await workspaces.list()).map((workspace) => workspace.name)).toEqual([
        "Alpha",
        "Zeta",
        "alpha",
      ]);
      expect(await workspaces.listMembers(zeta.id)).toEqual([ada, grace]);
    });

    it("never moves a member: a save naming another workspace's member writes nothing, answering why", async () => {
      const { workspaces } = repositories();
      const [mine, other] = [aWorkspace(), aWorkspace()];
      await workspaces.save(mine);
      await workspaces.save(other);
      const member = aMember(mine.id);
      expect(await workspaces.saveMember(member)).toBeUndefined();
      expect(await workspaces.saveMember({ ...member, name: "Renamed" })).toBeUndefined();
      expect(await workspaces.saveMember({ ...member, workspaceId: other.id, name: "Moved" })).toBe(
        "owned_elsewhere",
      );
      expect(await workspaces.findMember(mine.id, member.id)).toEqual({ ...member, name: "Renamed" });
      expect(await workspaces.listMembers(other.id)).toEqual([]);
    });
  });
}
