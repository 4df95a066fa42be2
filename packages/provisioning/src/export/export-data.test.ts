import { describe, expect, it, onTestFinished } from "vitest";
import { demoWorkspaceFile } from "../demo/demo-workspace.js";

/** A provisioning world on a store of the kind under test, closed when the test ends. */
async function worldOn(openStore: (typeof STORES)[number][1]) {
  const store = await openStore();
  onTestFinished(() => store.close());
  return createProvisioningWorld(store);
}

import { createProvisioningWorld, STORES } from "../test-world.test-support.js";

describe.each(STORES)("ExportData (%s)", (_store, openStore) => {
  it("exports what import reads back: export, import into an empty store, export gives the same", async () => {
    const first = await worldOn(openStore);
    await first.importData.execute(demoWorkspaceFile());
    await first.issueKey.execute({ workspaceId: demoWorkspaceFile().workspaces[0]!.id! });
    const exported = await first.exportData.execute();

    const second = await worldOn(openStore);
    await second.importData.execute(JSON.parse(JSON.stringify(exported)));
    expect(await second.exportData.execute()).toEqual(exported);
  });

  it("writes keys as hashes only", async () => {
    const world = await worldOn(openStore);
    await world.importData.execute(demoWorkspaceFile());
    const { token } = await world.issueKey.execute({ workspaceId: demoWorkspaceFile().workspaces[0]!.id! });
    const exported = JSON.stringify(await world.exportData.execute());
    expect(exported).not.toContain(token);
    expect(exported).toContain(`sha256:${world.hasher.hash(token)}`);
  });

  it("exports an empty store as no workspaces", async () => {
    expect(await (await worldOn(openStore)).exportData.execute()).toEqual({ version: 1, workspaces: [] });
  });
});
