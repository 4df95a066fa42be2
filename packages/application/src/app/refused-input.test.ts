import { anApp, aSite, aWorkspace } from "@service-api/ports/testing";
import { describe, expect, it } from "vitest";
import { loose, NUL } from "../test-support/loose-input.js";
import { createWorld } from "../test-support/world.js";
import { GetAppInfo, GetAppMeta } from "./get-app-info.js";
import { GetWebAppSettings } from "./get-web-app-settings.js";

describe("app use cases called with an app their types do not allow", () => {
  it("refuse a missing app, or one whose ids can name nothing, before asking the store", async () => {
    const world = createWorld({ refusingUnstorableText: true });
    const workspace = aWorkspace();
    await world.workspaces.save(workspace);
    const app = anApp(workspace.id);
    await world.apps.save(app);
    await world.apps.saveSite(aSite(app.id));
    const uses = [
      new GetAppInfo(world.tags, world.workspaces),
      new GetAppMeta(),
      new GetWebAppSettings(world.apps, "https://files.example.com"),
    ];
    for (const bad of [
      undefined,
      null,
      "x",
      { ...app, id: NUL },
      { ...app, workspaceId: NUL },
      { ...app, createdBy: NUL },
    ]) {
      for (const use of uses) {
        await expect(use.execute(loose(bad))).rejects.toMatchObject({
          code: "invalid_param",
          message: "app: must be the app an app key grants.",
        });
      }
    }
  });
});
