import type { Conversation, ConversationVariable, VariableType } from "@service-api/domain";
import type { Kysely, Selectable } from "kysely";
import type { ConversationTable, ConversationVariableTable, DatabaseSchema } from "../schema.js";
import { fromFlag } from "./rows.js";

export function variableFromRow(row: Selectable<ConversationVariableTable>): ConversationVariable {
  return {
    id: row.id,
    conversationId: row.conversation_id,
    name: row.name,
    valueType: row.value_type as VariableType,
    value: JSON.parse(row.value),
    description: row.description,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export const conversationFromRow = (row: Selectable<ConversationTable>): Conversation => ({
  id: row.id,
  appId: row.app_id,
  endUserId: row.end_user_id,
  isDeleted: fromFlag(row.is_deleted),
});

/** The conversation's columns beside another table's (its id is the caller's), prefixed `conversation_`. */
export const CONVERSATION_COLUMNS_PREFIXED = [
  "c.app_id as conversation_app_id",
  "c.end_user_id as conversation_end_user_id",
  "c.is_deleted as conversation_is_deleted",
] as const;

type Prefixed = {
  conversation_app_id: Selectable<ConversationTable>["app_id"];
  conversation_end_user_id: Selectable<ConversationTable>["end_user_id"];
  conversation_is_deleted: Selectable<ConversationTable>["is_deleted"];
};

/** The conversation `id` from a row with `CONVERSATION_COLUMNS_PREFIXED`. */
export const conversationFromPrefixed = (id: string, row: Prefixed): Conversation =>
  conversationFromRow({
    id,
    app_id: row.conversation_app_id,
    end_user_id: row.conversation_end_user_id,
    is_deleted: row.conversation_is_deleted,
  });

/** The id of the app's end user with this session id, as the column `session_user_id`. */
export const sessionUser = (db: Kysely<DatabaseSchema>, appId: string, sessionId: string | null) =>
  db
    .selectFrom("end_users")
    .select("end_users.id")
    .where("end_users.app_id", "=", appId)
    .where("end_users.session_id", "=", sessionId as string)
    .as("session_user_id");
