import { APP_MODES, codePointLength, VARIABLE_TYPES } from "@service-api/domain";
import { z } from "zod";
import { apiKey, id, name, timestamp } from "./common.js";

export const siteSchema = z.strictObject({
  title: z.string().optional(),
  chat_color_theme: z.string().default(""),
  chat_color_theme_inverted: z.boolean().default(false),
  icon_type: z.enum(["emoji", "image"]).default("emoji"),
  icon: z.string().default("🤖"),
  icon_background: z.string().default("#FFEAD5"),
  description: z.string().default(""),
  copyright: z.string().default(""),
  privacy_policy: z.string().default(""),
  input_placeholder: z.string().nullable().default(null),
  custom_disclaimer: z.string().default(""),
  default_language: z.string().default("en-US"),
  show_workflow_steps: z.boolean().default(true),
  use_icon_as_answer_icon: z.boolean().default(false),
});

export const variableSchema = z.strictObject({
  id: id.optional(),
  name,
  value_type: z.enum(VARIABLE_TYPES),
  value: z.unknown(),
  description: z.string().default(""),
  created_at: timestamp.optional(),
  updated_at: timestamp.optional(),
});

/**
 * Dify's `end_users.session_id` is a varchar(255), and one end user per session id of an app is a
 * unique index in both stores: 255 characters are at most 1,020 bytes of UTF-8, which every store
 * indexes (PostgreSQL's btree refuses an entry over 2,704 bytes; SQLite would take any).
 */
const USER_MAX_LENGTH = 255;

/** The end user's session id, as the app names it (the API's `user`). */
const user = z
  .string()
  .min(1)
  .refine((text) => codePointLength(text) <= USER_MAX_LENGTH, {
    error: `must be at most ${USER_MAX_LENGTH} characters`,
  })
  .meta({ maxLength: USER_MAX_LENGTH });

export const conversationSchema = z.strictObject({
  id: id.optional(),
  user,
  is_deleted: z.boolean().default(false),
  variables: z.array(variableSchema).default([]),
});

export const appSchema = z.strictObject({
  id: id.optional(),
  name,
  mode: z.enum(Object.keys(APP_MODES) as [keyof typeof APP_MODES, ...(keyof typeof APP_MODES)[]]),
  enable_api: z.boolean().default(true),
  status: z.enum(["normal", "archived"]).default("normal"),
  description: z.string().default(""),
  /** A member of the workspace, or null; default: its owner. */
  created_by: z.string().min(1).nullable().optional(),
  /** App tags of the workspace bound to the app. */
  tag_ids: z.array(id).default([]),
  api_keys: z.array(apiKey).default([]),
  site: siteSchema.optional(),
  conversations: z.array(conversationSchema).default([]),
});
