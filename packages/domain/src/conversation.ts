import type { App } from "./app.js";
import { InvalidParamError, NotChatAppError } from "./errors.js";
import { MAX_JSON_DEPTH } from "./json-depth.js";
import { isJsonValue } from "./json-value.js";
import type { VariableType } from "./variable-type.js";

/** Someone using an app, known by the `user` string the calling application chose. */
export interface EndUser {
  id: string;
  appId: string;
  /** The `user` string; unique within the app. */
  sessionId: string;
}

export interface Conversation {
  id: string;
  appId: string;
  endUserId: string;
  isDeleted: boolean;
}

/** A variable of one conversation. `value` keeps its JSON type. Timestamps are Unix seconds. */
export interface ConversationVariable {
  id: string;
  conversationId: string;
  name: string;
  valueType: VariableType;
  value: unknown;
  description: string;
  createdAt: number;
  updatedAt: number;
}

/** Dify's default limit on a variable's serialized value. */
export const MAX_VARIABLE_VALUE_BYTES = 200 * 1024;

const CHAT_MODES = new Set(["chat", "agent-chat", "advanced-chat"]);

/** Conversation variables exist only in chat-style apps. */
export function ensureChatApp(app: App): void {
  if (!CHAT_MODES.has(app.mode)) throw new NotChatAppError();
}

/** The `user` a request on conversations names its end user by: a non-empty string. */
export function ensureUserGiven(user: unknown): string {
  if (typeof user !== "string" || user.length === 0) {
    throw new InvalidParamError("user", "user is required and must be a non-empty string.");
  }
  return user;
}

/** Guards the update's input, field by field, in the order the reference checks them. */
export function ensureVariableUpdate(input: { user: unknown; value: unknown }): {
  user: string;
  value: unknown;
} {
  const user = ensureUserGiven(input.user);
  const { value } = input;
  if (value === undefined) throw new InvalidParamError("value", "value is required.");
  // A request body is JSON already; a direct caller's value may be anything, a cycle included.
  if (!isJsonValue(value)) {
    throw new InvalidParamError(
      "value",
      `value must be a JSON value, nested at most ${MAX_JSON_DEPTH} levels deep.`,
    );
  }
  const serialized = JSON.stringify(value);
  // A UTF-16 code unit takes at most 3 bytes in UTF-8: most values fit without being encoded.
  if (serialized.length * 3 > MAX_VARIABLE_VALUE_BYTES) {
    const size = new TextEncoder().encode(serialized).length;
    if (size > MAX_VARIABLE_VALUE_BYTES) {
      throw new InvalidParamError(
        "value",
        `value is too large: ${size} bytes, at most ${MAX_VARIABLE_VALUE_BYTES}.`,
      );
    }
  }
  return { user, value };
}
