import { describe, expect, it } from "vitest";
import { demoWorkspaceFile } from "../demo/demo-workspace.js";
import { createProvisioningWorld } from "../test-world.test-support.js";

describe("ExportData", () => {
  it("exports what import reads back: export, import into an empty store, export gives the same", async () => {
    const first = createProvisioningWorld();
    await first.importData.execute(demoWorkspaceFile());
    await first.issueKey.execute({ workspaceId: demoWorkspaceFile().workspaces[0]!.id! });
    const exported = await first.exportData.execute();

    const second = createProvisioningWorld();
    await second.importData.execute(JSON.parse(JSON.stringify(exported)));
    expect(await second.exportData.execute()).toEqual(exported);
  });

  it("writes keys as hashes only", async () => {
    const world = createProvisioningWorld();
    await world.importData.execute(demoWorkspaceFile());
    const { token } = await world.issueKey.execute({ workspaceId: demoWorkspaceFile().workspaces[0]!.id! });
    const exported = JSON.stringify(await world.exportData.execute());
    expect(exported).not.toContain(token);
    expect(exported).toContain(`sha256:${world.hasher.hash(token)}`);
  });

  it("exports an empty store as no workspaces", async () => {
    expect(await createProvisioningWorld().exportData.execute()).toEqual({ version: 1, workspaces: [] });
  });
});
