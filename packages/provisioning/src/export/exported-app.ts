import type { App, Conversation, ConversationVariable, Site } from "@service-api/domain";
import type { Repositories } from "@service-api/ports";
import type { ImportFileInput } from "../format/import-file-schema.js";
import { Streamed } from "./streamed-json.js";

type AppOutput = NonNullable<ImportFileInput["workspaces"][number]["apps"]>[number];
type ConversationOutput = NonNullable<AppOutput["conversations"]>[number];

/** An app in the import format, its conversations written one at a time. */
export async function exportedApp({ apps, apiKeys, conversations, endUsers, tags }: Repositories, app: App) {
  const site = await apps.findSite(app.id);
  return {
    id: app.id,
    name: app.name,
    mode: app.mode,
    enable_api: app.enableApi,
    status: app.status,
    description: app.description,
    created_by: app.createdBy,
    tag_ids: await tags.boundTagIds(app.id),
    api_keys: (await apiKeys.list({ appId: app.id })).map((key) => `sha256:${key.tokenHash}`),
    conversations: new Streamed<ConversationOutput>(async function* () {
      for (const conversation of await conversations.listInApp(app.id)) {
        const endUser = await endUsers.findById(conversation.endUserId);
        yield conversationOutput(
          conversation,
          endUser?.sessionId,
          await conversations.listVariables(conversation.id),
        );
      }
    }),
    ...(site && { site: siteOutput(site) }),
  };
}

function conversationOutput(
  conversation: Conversation,
  sessionId: string | undefined,
  variables: ConversationVariable[],
): ConversationOutput {
  return {
    id: conversation.id,
    user: sessionId ?? conversation.endUserId,
    is_deleted: conversation.isDeleted,
    variables: variables.map((variable) => ({
      id: variable.id,
      name: variable.name,
      value_type: variable.valueType,
      value: variable.value,
      description: variable.description,
      created_at: variable.createdAt,
      updated_at: variable.updatedAt,
    })),
  };
}

function siteOutput(site: Site): NonNullable<AppOutput["site"]> {
  return {
    title: site.title,
    chat_color_theme: site.chatColorTheme,
    chat_color_theme_inverted: site.chatColorThemeInverted,
    icon_type: site.iconType,
    icon: site.icon,
    icon_background: site.iconBackground,
    description: site.description,
    copyright: site.copyright,
    privacy_policy: site.privacyPolicy,
    input_placeholder: site.inputPlaceholder,
    custom_disclaimer: site.customDisclaimer,
    default_language: site.defaultLanguage,
    show_workflow_steps: site.showWorkflowSteps,
    use_icon_as_answer_icon: site.useIconAsAnswerIcon,
  };
}
