import type { Site } from "@service-api/domain";
import type { AppInput } from "../format/import-file-schema.js";
import { heldElsewhere, type WriteContext } from "./write-context.js";
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

async function writeConversation(
  conversation: AppInput["conversations"][number],
  appId: string,
  at: string,
  context: WriteContext,
): Promise<void> {
  const { repositories, clock, ids, summary, refuse } = context;
  const endUser = (await repositories.endUsers.findBySessionId(appId, conversation.user)) ?? {
    id: ids.derive("end-user", appId, conversation.user),
    appId,
    sessionId: conversation.user,
  };
  if (await repositories.endUsers.save(endUser)) {
    refuse(`${at}.user`, heldElsewhere(endUser.id, "another app's end user"));
    return;
  }
  const conversationId = conversation.id!;
  const refused = await repositories.conversations.save({
    id: conversationId,
    appId,
    endUserId: endUser.id,
    isDeleted: conversation.is_deleted,
  });
  if (refused) {
    refuse(at, heldElsewhere(conversationId, "another app's conversation"));
    return;
  }
  summary.conversations += 1;
  for (const variable of conversation.variables) {
    const stored = await repositories.conversations.findVariable(conversationId, variable.id!);
    const unchanged = stored !== undefined && JSON.stringify(stored.value) === JSON.stringify(variable.value);
    await repositories.conversations.saveVariable({
      id: variable.id!,
      conversationId,
      name: variable.name,
      valueType: variable.value_type,
      value: variable.value,
      description: variable.description,
      createdAt: variable.created_at ?? stored?.createdAt ?? clock.nowSeconds(),
      updatedAt: variable.updated_at ?? (unchanged ? stored.updatedAt : clock.nowSeconds()),
    });
  }
}

function siteFromInput(site: Omit<NonNullable<AppInput["site"]>, "title">): Omit<Site, "appId" | "title"> {
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
