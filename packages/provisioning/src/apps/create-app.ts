import {
  APP_MODES,
  type App,
  type AppMode,
  ensureName,
  InvalidParamError,
  lookupId,
  NotFoundError,
} from "@service-api/domain";
import type { IdGenerator, Store } from "@service-api/ports";
import { siteSchema } from "../format/app-schema.js";
import { siteFromInput } from "../import/write-app.js";

export interface CreateAppInput {
  workspaceId: string;
  name: string;
  mode: AppMode;
}

const MODES = Object.keys(APP_MODES).join(", ");

/**
 * Creates an app of a workspace, its API on, created by the workspace's owner, with the web app
 * settings Dify gives a new app (titled with its name), in one transaction: what an app key needs.
 */
export class CreateApp {
  constructor(
    private readonly store: Pick<Store, "transaction">,
    private readonly ids: IdGenerator,
  ) {}

  async execute(input: CreateAppInput): Promise<App> {
    if (typeof input !== "object" || input === null)
      throw new InvalidParamError("input", "input: must be an object.");
    const { workspaceId, name, mode } = input;
    ensureName(name);
    if (typeof mode !== "string" || !Object.hasOwn(APP_MODES, mode))
      throw new InvalidParamError("mode", `mode: must be one of ${MODES}.`);
    return this.store.transaction(async ({ workspaces, apps }) => {
      const workspace = await workspaces.findById(lookupId(workspaceId));
      if (!workspace) throw new NotFoundError(`No workspace has the id ${workspaceId}.`);
      const owner = await workspaces.findOwner(workspace.id);
      const app: App = {
        id: this.ids.next(),
        workspaceId: workspace.id,
        name,
        mode,
        enableApi: true,
        status: "normal",
        description: "",
        createdBy: owner?.id ?? null,
      };
      await apps.save(app);
      await apps.saveSite({ ...siteFromInput(siteSchema.parse({})), appId: app.id, title: name });
      return app;
    });
  }
}
