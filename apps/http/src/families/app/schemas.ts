import { APP_MODES } from "@service-api/domain";
import { z } from "zod";

export const webAppSettings = z.object({
  title: z.string(),
  chat_color_theme: z.string(),
  chat_color_theme_inverted: z.boolean(),
  icon_type: z.enum(["emoji", "image"]),
  icon: z.string().meta({ description: "An emoji, or an image's id when `icon_type` is `image`." }),
  icon_background: z.string(),
  icon_url: z.string().nullable().meta({ description: "The image's URL; null for an emoji." }),
  description: z.string(),
  copyright: z.string(),
  privacy_policy: z.string(),
  input_placeholder: z.string().nullable(),
  custom_disclaimer: z.string(),
  default_language: z.string(),
  show_workflow_steps: z.boolean(),
  use_icon_as_answer_icon: z.boolean(),
});

export const appInfo = z.object({
  name: z.string(),
  description: z.string(),
  tags: z.array(z.string()).meta({ description: "Names of the app tags bound to the app, by name." }),
  mode: z.enum(Object.keys(APP_MODES) as [keyof typeof APP_MODES, ...(keyof typeof APP_MODES)[]]),
  author_name: z.string().meta({ description: 'The creator\'s name; `""` without one.' }),
});

export const appMeta = z.object({
  tool_icons: z
    .record(z.string(), z.never())
    .meta({ description: "Icons of the app's tools: none are held." }),
});
