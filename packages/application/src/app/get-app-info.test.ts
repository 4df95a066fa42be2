import { aMember, anApp, aTag, aWorkspace } from "@service-api/ports/testing";
import { describe, expect, it } from "vitest";
import { createWorld } from "../test-support/world.js";
import { GetAppInfo, GetAppMeta } from "./get-app-info.js";

describe("GetAppInfo", () => {
  it("gives the app's app tags by name and its creator's name", async () => {
    const world = createWorld();
    const workspace = aWorkspace();
    await world.workspaces.save(workspace);
    const member = aMember(workspace.id, { name: "Grace" });
    await world.workspaces.saveMember(member);
    const app = anApp(workspace.id, { description: "Helps", createdBy: member.id, mode: "workflow" });
    await world.apps.save(app);
    const [zeta, alpha, knowledge] = [
      aTag(workspace.id, { type: "app", name: "zeta" }),
      aTag(workspace.id, { type: "app", name: "alpha" }),
      aTag(workspace.id, { name: "knowledge only" }),
    ];
    for (const tag of [zeta, alpha, knowledge]) await world.tags.save(tag);
    await world.tags.bind(
      [zeta, alpha, knowledge].map((tag) => ({
        id: globalThis.crypto.randomUUID(),
        workspaceId: workspace.id,
        tagId: tag.id,
        targetId: app.id,
        createdAt: 1,
      })),
    );
    const info = new GetAppInfo(world.tags, world.workspaces);
    expect(await info.execute(app)).toEqual({
      name: app.name,
      description: "Helps",
      tags: ["alpha", "zeta"],
      mode: "workflow",
      authorName: "Grace",
    });
    expect((await info.execute({ ...app, createdBy: null })).authorName).toBe("");
    expect(await new GetAppMeta().execute(app)).toEqual({ toolIcons: {} });
  });
});
