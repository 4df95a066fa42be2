import type { Conversation, ConversationVariable, VariableType } from "@service-api/domain";
import type { ConversationRepository } from "@service-api/ports";
import type { Kysely, Selectable } from "kysely";
import { compiledRead } from "../compiled-read.js";
import type { ConversationTable, ConversationVariableTable, DatabaseSchema } from "../schema.js";
import type { SqlFeatures } from "../sql-features.js";
import { fromFlag, toFlag, updateAllBut } from "./rows.js";

function variableFromRow(row: Selectable<ConversationVariableTable>): ConversationVariable {
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

const conversationFromRow = (row: Selectable<ConversationTable>): Conversation => ({
  id: row.id,
  appId: row.app_id,
  endUserId: row.end_user_id,
  isDeleted: fromFlag(row.is_deleted),
});

const conversationInApp = compiledRead((db, appId: string, conversationId: string) =>
  db.selectFrom("conversations").selectAll().where("id", "=", conversationId).where("app_id", "=", appId),
);
const variableOfConversation = compiledRead((db, conversationId: string, variableId: string) =>
  db
    .selectFrom("conversation_variables")
    .selectAll()
    .where("conversation_id", "=", conversationId)
    .where("id", "=", variableId),
);

/** One statement, so concurrent updates end with one value whole. */
const setVariableValue = compiledRead(
  (db, conversationId: string, variableId: string, value: string, updatedAt: number) =>
    db
      .updateTable("conversation_variables")
      .set({ value, updated_at: updatedAt })
      .where("conversation_id", "=", conversationId)
      .where("id", "=", variableId)
      .returningAll(),
);

export class KyselyConversationRepository implements ConversationRepository {
  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    private readonly features: SqlFeatures,
  ) {}

  async save(conversation: Conversation): Promise<void> {
    const row = {
      id: conversation.id,
      app_id: conversation.appId,
      end_user_id: conversation.endUserId,
      is_deleted: toFlag(conversation.isDeleted),
    };
    await this.db
      .insertInto("conversations")
      .values(row)
      .onConflict((conflict) => conflict.column("id").doUpdateSet(updateAllBut(row, "id")))
      .execute();
  }

  async findInApp(appId: string, conversationId: string): Promise<Conversation | undefined> {
    const [row] = await conversationInApp(this.db, appId, conversationId);
    return row && conversationFromRow(row);
  }

  async listInApp(appId: string): Promise<Conversation[]> {
    const rows = await this.db
      .selectFrom("conversations")
      .selectAll()
      .where("app_id", "=", appId)
      .orderBy("id")
      .execute();
    return rows.map(conversationFromRow);
  }

  async listVariables(conversationId: string): Promise<ConversationVariable[]> {
    const rows = await this.db
      .selectFrom("conversation_variables")
      .selectAll()
      .where("conversation_id", "=", conversationId)
      .orderBy("name")
      .orderBy("id")
      .execute();
    return rows.map(variableFromRow);
  }

  async listVariablesPage(
    conversationId: string,
    options: { after?: { createdAt: number; id: string }; limit: number; nameContains?: string },
  ): Promise<ConversationVariable[]> {
    const { after, limit, nameContains } = options;
    let query = this.db
      .selectFrom("conversation_variables")
      .selectAll()
      .where("conversation_id", "=", conversationId);
    if (nameContains !== undefined) query = query.where(this.features.containsText("name", nameContains));
    if (after) {
      query = query.where((eb) =>
        eb.or([
          eb("created_at", ">", after.createdAt),
          eb.and([eb("created_at", "=", after.createdAt), eb("id", ">", after.id)]),
        ]),
      );
    }
    const rows = await query.orderBy("created_at").orderBy("id").limit(limit).execute();
    return rows.map(variableFromRow);
  }

  async saveVariable(variable: ConversationVariable): Promise<void> {
    const row = {
      conversation_id: variable.conversationId,
      id: variable.id,
      name: variable.name,
      value_type: variable.valueType,
      value: JSON.stringify(variable.value),
      description: variable.description,
      created_at: variable.createdAt,
      updated_at: variable.updatedAt,
    };
    await this.db
      .insertInto("conversation_variables")
      .values(row)
      .onConflict((conflict) =>
        conflict.columns(["conversation_id", "id"]).doUpdateSet(updateAllBut(row, "conversation_id", "id")),
      )
      .execute();
  }

  async findVariable(conversationId: string, variableId: string): Promise<ConversationVariable | undefined> {
    const [row] = await variableOfConversation(this.db, conversationId, variableId);
    return row && variableFromRow(row);
  }

  async updateVariableValue(
    conversationId: string,
    variableId: string,
    value: unknown,
    updatedAt: number,
  ): Promise<ConversationVariable | undefined> {
    const [row] = await setVariableValue(
      this.db,
      conversationId,
      variableId,
      JSON.stringify(value),
      updatedAt,
    );
    return row && variableFromRow(row);
  }
}
