import type { WebAppSettings } from "@service-api/application";
import type { z } from "zod";
import type { webAppSettings } from "./schemas.js";

export function presentWebAppSettings(settings: WebAppSettings): z.output<typeof webAppSettings> {
  return {
    title: settings.title,
    chat_color_theme: settings.chatColorTheme,
    chat_color_theme_inverted: settings.chatColorThemeInverted,
    icon_type: settings.iconType,
    icon: settings.icon,
    icon_background: settings.iconBackground,
    icon_url: settings.iconUrl,
    description: settings.description,
    copyright: settings.copyright,
    privacy_policy: settings.privacyPolicy,
    input_placeholder: settings.inputPlaceholder,
    custom_disclaimer: settings.customDisclaimer,
    default_language: settings.defaultLanguage,
    show_workflow_steps: settings.showWorkflowSteps,
    use_icon_as_answer_icon: settings.useIconAsAnswerIcon,
  };
}
