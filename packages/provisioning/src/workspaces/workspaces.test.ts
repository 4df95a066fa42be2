import { aDataset } from "@service-api/ports/testing";
import { describe, expect, it, onTestFinished } from "vitest";
import { DEMO, demoWorkspaceFile } from "../demo/demo-workspace.js";
import { createProvisioningWorld, STORES } from "../test-world.test-support.js";
import type { CreateWorkspaceInput } from "./create-workspace.js";

describe.each(STORES)("workspaces from nothing (%s)", (_store, openStore) => {
  async function world() {
    const store = await openStore();
    onTestFinished(() => store.close());
    return createProvisioningWorld(store);
  }

  it("creates a workspace with its owner, listed with what it holds", async () => {
    const { createWorkspace, listWorkspaces, importData, store } = await world();
    await importData.execute(demoWorkspaceFile());
    const { workspace, owner } = await createWorkspace.execute({ name: "Acme", ownerName: "Ada" });
    expect(workspace).toMatchObject({ name: "Acme", status: "normal" });
    expect(await store.repositories.workspaces.findOwner(workspace.id)).toEqual(owner);
    expect(owner).toMatchObject({ workspaceId: workspace.id, name: "Ada", role: "owner" });

    await store.repositories.datasets.create(aDataset(workspace.id, { name: "Handbook" }));
    expect(await listWorkspaces.execute()).toEqual([
      { workspace, datasets: 1, apps: 0 },
      { workspace: expect.objectContaining({ id: DEMO.workspaceId }), datasets: 1, apps: 2 },
    ]);
  });

  it("names the owner Owner unless told", async () => {
    const { createWorkspace } = await world();
    expect((await createWorkspace.execute({ name: "Acme" })).owner.name).toBe("Owner");
  });

  it("creates an app of the workspace, created by its owner, with a site, for which a key is issued", async () => {
    const { createWorkspace, createApp, issueKey, store } = await world();
    const { workspace, owner } = await createWorkspace.execute({ name: "Acme" });
    const app = await createApp.execute({ workspaceId: workspace.id, name: "Helper", mode: "chat" });
    expect(await store.repositories.apps.findById(app.id)).toEqual({
      id: app.id,
      workspaceId: workspace.id,
      name: "Helper",
      mode: "chat",
      enableApi: true,
      status: "normal",
      description: "",
      createdBy: owner.id,
    });
    expect(await store.repositories.apps.findSite(app.id)).toMatchObject({ title: "Helper", icon: "🤖" });
    expect((await issueKey.execute({ appId: app.id })).key).toMatchObject({
      kind: "app",
      workspaceId: workspace.id,
    });
  });
});

describe("refusals", () => {
  it.each([
    [{ name: "" }, "name: Name must not be blank."],
    [{ name: "x".repeat(256) }, "name: Name must be at most 255 characters."],
    [{ name: "Acme", ownerName: " " }, "owner: Name must not be blank."],
    [undefined, "input: must be an object."],
  ])("refuses the workspace %j, writing nothing", async (input, message) => {
    const { createWorkspace, store } = createProvisioningWorld();
    await expect(createWorkspace.execute(input as CreateWorkspaceInput)).rejects.toMatchObject({
      code: "invalid_param",
      message,
    });
    expect(await store.repositories.workspaces.list()).toEqual([]);
  });

  it("refuses an app of no workspace, of no mode or without a name", async () => {
    const { createWorkspace, createApp, store } = createProvisioningWorld();
    const { workspace } = await createWorkspace.execute({ name: "Acme" });
    await expect(
      createApp.execute({ workspaceId: DEMO.workspaceId, name: "Helper", mode: "chat" }),
    ).rejects.toMatchObject({ code: "not_found", message: `No workspace has the id ${DEMO.workspaceId}.` });
    await expect(
      createApp.execute({ workspaceId: workspace.id, name: "Helper", mode: "bot" as "chat" }),
    ).rejects.toMatchObject({
      code: "invalid_param",
      message: expect.stringMatching(/^mode: must be one of /),
    });
    await expect(
      createApp.execute({ workspaceId: workspace.id, name: "", mode: "chat" }),
    ).rejects.toMatchObject({ code: "invalid_param", message: "name: Name must not be blank." });
    expect(await store.repositories.apps.listInWorkspace(workspace.id)).toEqual([]);
  });
});
