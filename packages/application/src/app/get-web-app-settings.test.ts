import { anApp, aSite, aWorkspace } from "@service-api/ports/testing";
import { describe, expect, it } from "vitest";
import { createWorld } from "../test-support/world.js";
import { GetWebAppSettings } from "./get-web-app-settings.js";

async function setup() {
  const world = createWorld();
  const workspace = aWorkspace();
  await world.workspaces.save(workspace);
  const app = anApp(workspace.id);
  await world.apps.save(app);
  return { world, app, settings: new GetWebAppSettings(world.apps, "https://files.example.com/") };
}

describe("GetWebAppSettings", () => {
  it("shows the site's settings without an icon URL for emoji icons", async () => {
    const { world, app, settings } = await setup();
    const site = aSite(app.id);
    await world.apps.saveSite(site);
    const { appId, ...expected } = site;
    expect(await settings.execute(app)).toEqual({ ...expected, iconUrl: null });
  });

  it("builds an absolute icon URL for image icons", async () => {
    const { world, app, settings } = await setup();
    await world.apps.saveSite(aSite(app.id, { iconType: "image", icon: "file-42" }));
    expect((await settings.execute(app)).iconUrl).toBe(
      "https://files.example.com/files/file-42/file-preview",
    );
  });

  it("forbids apps without a site", async () => {
    const { app, settings } = await setup();
    await expect(settings.execute(app)).rejects.toMatchObject({ code: "forbidden" });
  });
});
