import type { App, AppMode, Site } from "@service-api/domain";
import type { AppRepository } from "@service-api/ports";
import type { Kysely, Selectable } from "kysely";
import { compiledRead } from "../compiled-read.js";
import type { AppTable, DatabaseSchema, SiteTable } from "../schema.js";
import { saveOwnedRow } from "./owned-rows.js";
import { fromFlag, toFlag, updateAllBut } from "./rows.js";

function siteToRow(site: Site): SiteTable {
  return {
    app_id: site.appId,
    title: site.title,
    chat_color_theme: site.chatColorTheme,
    chat_color_theme_inverted: toFlag(site.chatColorThemeInverted),
    icon_type: site.iconType,
    icon: site.icon,
    icon_background: site.iconBackground,
    description: site.description,
    copyright: site.copyright,
    privacy_policy: site.privacyPolicy,
    input_placeholder: site.inputPlaceholder,
    custom_disclaimer: site.customDisclaimer,
    default_language: site.defaultLanguage,
    show_workflow_steps: toFlag(site.showWorkflowSteps),
    use_icon_as_answer_icon: toFlag(site.useIconAsAnswerIcon),
  };
}

function siteFromRow(row: Selectable<SiteTable>): Site {
  return {
    appId: row.app_id,
    title: row.title,
    chatColorTheme: row.chat_color_theme,
    chatColorThemeInverted: fromFlag(row.chat_color_theme_inverted),
    iconType: row.icon_type as Site["iconType"],
    icon: row.icon,
    iconBackground: row.icon_background,
    description: row.description,
    copyright: row.copyright,
    privacyPolicy: row.privacy_policy,
    inputPlaceholder: row.input_placeholder,
    customDisclaimer: row.custom_disclaimer,
    defaultLanguage: row.default_language,
    showWorkflowSteps: fromFlag(row.show_workflow_steps),
    useIconAsAnswerIcon: fromFlag(row.use_icon_as_answer_icon),
  };
}

const appFromRow = (row: Selectable<AppTable>): App => ({
  id: row.id,
  workspaceId: row.workspace_id,
  name: row.name,
  mode: row.mode as AppMode,
  enableApi: fromFlag(row.enable_api),
  status: row.status as App["status"],
  description: row.description,
  createdBy: row.created_by,
});

const appById = compiledRead((db, id: string) => db.selectFrom("apps").selectAll().where("id", "=", id));
const siteOfApp = compiledRead((db, appId: string) =>
  db.selectFrom("sites").selectAll().where("app_id", "=", appId),
);

export class KyselyAppRepository implements AppRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  async save(app: App): Promise<"owned_elsewhere" | undefined> {
    const row = {
      id: app.id,
      workspace_id: app.workspaceId,
      name: app.name,
      mode: app.mode,
      enable_api: toFlag(app.enableApi),
      status: app.status,
      description: app.description,
      created_by: app.createdBy,
    };
    return saveOwnedRow(this.db, "apps", row, "workspace_id");
  }

  async findById(id: string): Promise<App | undefined> {
    const [row] = await appById(this.db, id);
    return row && appFromRow(row);
  }

  async listInWorkspace(workspaceId: string): Promise<App[]> {
    const rows = await this.db
      .selectFrom("apps")
      .selectAll()
      .where("workspace_id", "=", workspaceId)
      .orderBy("name")
      .orderBy("id")
      .execute();
    return rows.map(appFromRow);
  }

  async saveSite(site: Site): Promise<void> {
    const row = siteToRow(site);
    await this.db
      .insertInto("sites")
      .values(row)
      .onConflict((conflict) => conflict.column("app_id").doUpdateSet(updateAllBut(row, "app_id")))
      .execute();
  }

  async findSite(appId: string): Promise<Site | undefined> {
    const [row] = await siteOfApp(this.db, appId);
    return row && siteFromRow(row);
  }
}
