import type { Site } from "@service-api/domain";
import type { AppInput } from "../format/import-file-schema.js";
import { heldElsewhere, type WriteContext } from "./write-context.js";
import { writeConversation } from "./write-conversation.js";
import { writeKey } from "./write-key.js";

export interface AppPlace {
  workspaceId: string;
  ownerId: string | undefined;
  /** The workspace's tags saved by this import: the others were refused. */
  savedTags: Set<string>;
}

export async function writeApp(
  app: AppInput,
  { workspaceId, ownerId, savedTags }: AppPlace,
  at: string,
  context: WriteContext,
): Promise<void> {
  const { repositories, clock, ids, summary } = context;
  const appId = app.id!;
  const existing = await repositories.apps.findById(appId);
  const refused = await repositories.apps.save({
    id: appId,
    workspaceId,
    name: app.name,
    mode: app.mode,
    enableApi: app.enable_api,
    status: app.status,
    description: app.description,
    createdBy: app.created_by !== undefined ? app.created_by : (existing?.createdBy ?? ownerId ?? null),
  });
  if (refused) {
    context.refuse(at, heldElsewhere(appId, "another workspace's app"));
    return;
  }
  await repositories.tags.bind(
    app.tag_ids
      .filter((tagId) => savedTags.has(tagId))
      .map((tagId) => ({
        id: ids.derive("tag-binding", tagId, appId),
        workspaceId,
        tagId,
        targetId: appId,
        createdAt: clock.nowSeconds(),
      })),
  );
  summary.apps += 1;
  if (app.site) {
    const { title, ...site } = app.site;
    await repositories.apps.saveSite({ ...siteFromInput(site), appId, title: title ?? app.name });
  }
  for (const [index, key] of app.api_keys.entries()) {
    await writeKey(key, "app", workspaceId, appId, `${at}.api_keys[${index}]`, context);
  }
  for (const [index, conversation] of app.conversations.entries()) {
    await writeConversation(conversation, appId, `${at}.conversations[${index}]`, context);
  }
}

/** A site as the API stores it, from the import format's (its defaults filled in). */
export function siteFromInput(
  site: Omit<NonNullable<AppInput["site"]>, "title">,
): Omit<Site, "appId" | "title"> {
  return {
    chatColorTheme: site.chat_color_theme,
    chatColorThemeInverted: site.chat_color_theme_inverted,
    iconType: site.icon_type,
    icon: site.icon,
    iconBackground: site.icon_background,
    description: site.description,
    copyright: site.copyright,
    privacyPolicy: site.privacy_policy,
    inputPlaceholder: site.input_placeholder,
    customDisclaimer: site.custom_disclaimer,
    defaultLanguage: site.default_language,
    showWorkflowSteps: site.show_workflow_steps,
    useIconAsAnswerIcon: site.use_icon_as_answer_icon,
  };
}
