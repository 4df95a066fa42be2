import type { ConversationVariable } from "@service-api/domain";
import type { z } from "zod";
import type { conversationVariable } from "./schemas.js";

/**
 * The variable with its value as a string, always: the text itself for `string` and `secret`,
 * JSON text for every other type (`42`, `true`, `{"a":1}`), which any JSON client can parse.
 */
export function presentConversationVariable(
  variable: ConversationVariable,
): z.output<typeof conversationVariable> {
  const { value, valueType } = variable;
  const text =
    (valueType === "string" || valueType === "secret") && typeof value === "string"
      ? value
      : JSON.stringify(value);
  return {
    id: variable.id,
    name: variable.name,
    value_type: valueType,
    value: text,
    description: variable.description,
    created_at: variable.createdAt,
    updated_at: variable.updatedAt,
  };
}
