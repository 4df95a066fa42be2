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

/** The id of the app's end user with this session id, as the column `session_user_id`. */
export const sessionUser = (db: Kysely<DatabaseSchema>, appId: string, sessionId: string | null) =>
  db
    .selectFrom("end_users")
    .select("end_users.id")
    .where("end_users.app_id", "=", appId)
    .where("end_users.session_id", "=", sessionId as string)
    .as("session_user_id");
