import { type Conversation, type ConversationVariable, VARIABLE_TYPES } from "@service-api/domain";
import type { CheckedVariableUpdate, ConversationRepository, VariablesPageRead } from "@service-api/ports";
import type { Kysely, Selectable } from "kysely";
import { compiledRead, compiledReadWith } from "../compiled-read.js";
import type { ConversationVariableTable, DatabaseSchema } from "../schema.js";
import type { SqlFeatures } from "../sql-features.js";
import {
  CONVERSATION_COLUMNS_PREFIXED,
  conversationFromPrefixed,
  conversationFromRow,
  sessionUser,
  variableFromRow,
} from "./conversation-rows.js";
import { saveOwnedRow } from "./owned-rows.js";
import { toFlag, updateAllBut } from "./rows.js";
import { variablesPageApart, variablesPageRead } from "./variable-page-read.js";

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

/** The conversation (columns prefixed `conversation_`), its session's end user, and the variable. */
const forVariableUpdate = compiledRead(
  (db, appId: string, sessionId: string | null, conversationId: string, variableId: string | null) =>
    db
      .selectFrom("conversations as c")
      .leftJoin("conversation_variables as v", (join) =>
        join.onRef("v.conversation_id", "=", "c.id").on("v.id", "=", variableId as string),
      )
      .select(CONVERSATION_COLUMNS_PREFIXED)
      .selectAll("v")
      .select(sessionUser(db, appId, sessionId))
      .where("c.id", "=", conversationId)
      .where("c.app_id", "=", appId),
);

type After = { createdAt: number; id: string };

/** The conversation's variables after `after` (oldest first: `createdAt`, then id). */
const variablesAfter = (db: Kysely<DatabaseSchema>, conversationId: string, after: After | undefined) => {
  const query = db
    .selectFrom("conversation_variables")
    .selectAll()
    .where("conversation_id", "=", conversationId);
  if (!after) return query;
  return query.where((eb) =>
    eb.or([
      eb("created_at", ">", after.createdAt),
      eb.and([eb("created_at", "=", after.createdAt), eb("id", ">", after.id)]),
    ]),
  );
};
const pageOf = <Query extends ReturnType<typeof variablesAfter>>(query: Query, limit: number) =>
  query.orderBy("created_at").orderBy("id").limit(limit);
/** Each page read compiled once (on PostgreSQL, named): from the start or after a variable, with or without a name filter. */
const firstVariables = compiledRead((db, conversationId: string, limit: number) =>
  pageOf(variablesAfter(db, conversationId, undefined), limit),
);
const variablesAfterOne = compiledRead(
  (db, conversationId: string, createdAt: number, id: string, limit: number) =>
    pageOf(variablesAfter(db, conversationId, { createdAt, id }), limit),
);
const firstNamed = compiledReadWith((db, features, conversationId: string, name: string, limit: number) =>
  pageOf(variablesAfter(db, conversationId, undefined).where(features.containsText("name", name)), limit),
);
const namedAfterOne = compiledReadWith(
  (db, features, conversationId: string, name: string, createdAt: number, id: string, limit: number) =>
    pageOf(
      variablesAfter(db, conversationId, { createdAt, id }).where(features.containsText("name", name)),
      limit,
    ),
);

/** The variable's value set (returning the row), in one statement, so concurrent updates end with one value whole. */
const valueUpdate = (
  db: Kysely<DatabaseSchema>,
  conversationId: string,
  variableId: string,
  value: string,
  updatedAt: number,
) =>
  db
    .updateTable("conversation_variables")
    .set({ value, updated_at: updatedAt })
    .where("conversation_id", "=", conversationId)
    .where("id", "=", variableId)
    .returningAll();
const setVariableValue = compiledRead(valueUpdate);

/**
 * `setVariableValue` where the update's checks hold, in the same statement: one round trip. The
 * accepted types come padded to every type's count, so the statement's text never changes.
 */
const setVariableValueIfAllowed = compiledRead(
  (
    db,
    appId: string,
    sessionId: string,
    conversationId: string,
    variableId: string,
    value: string,
    updatedAt: number,
    ...acceptedTypes: string[]
  ) =>
    valueUpdate(db, conversationId, variableId, value, updatedAt)
      .where("value_type", "in", acceptedTypes)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom("conversations as c")
            .innerJoin("end_users as u", "u.id", "c.end_user_id")
            .select("c.id")
            .where("c.id", "=", conversationId)
            .where("c.app_id", "=", appId)
            .where("c.is_deleted", "=", toFlag(false))
            .where("u.app_id", "=", appId)
            .where("u.session_id", "=", sessionId),
        ),
      ),
);

/** The distinct `types` padded to every type's count (the last one again), or undefined for none. */
function paddedTypes(types: readonly string[]): string[] | undefined {
  const distinct = [...new Set(types)];
  const last = distinct.at(-1);
  if (last === undefined) return undefined;
  return [...distinct, ...Array<string>(VARIABLE_TYPES.length - distinct.length).fill(last)];
}

export class KyselyConversationRepository implements ConversationRepository {
  readonly #readPage;

  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    private readonly features: SqlFeatures,
  ) {
    this.#readPage = variablesPageRead(features);
  }

  async save(conversation: Conversation): Promise<"owned_elsewhere" | undefined> {
    const row = {
      id: conversation.id,
      app_id: conversation.appId,
      end_user_id: conversation.endUserId,
      is_deleted: toFlag(conversation.isDeleted),
    };
    return saveOwnedRow(this.db, "conversations", row, "app_id");
  }

  async findForVariableUpdate(
    appId: string,
    sessionId: string | null,
    conversationId: string,
    variableId: string | null,
  ) {
    const [row] = await forVariableUpdate(this.db, appId, sessionId, conversationId, variableId);
    if (!row) return {};
    return {
      conversation: conversationFromPrefixed(conversationId, row),
      sessionUserId: row.session_user_id ?? undefined,
      variable: row.id === null ? undefined : variableFromRow(row as Selectable<ConversationVariableTable>),
    };
  }

  findVariablesPage(
    appId: string,
    sessionId: string | null,
    conversationId: string,
    options: { afterId: string | null; limit: number; nameContains?: string },
  ): Promise<VariablesPageRead> {
    if (!this.features.lateralJoins)
      return variablesPageApart(this, appId, sessionId, conversationId, options);
    return this.#readPage(this.db, appId, sessionId, conversationId, options);
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
    options: { after?: After; limit: number; nameContains?: string },
  ): Promise<ConversationVariable[]> {
    const { after, limit, nameContains: name } = options;
    let rows: Selectable<ConversationVariableTable>[];
    if (name === undefined) {
      rows = after
        ? await variablesAfterOne(this.db, conversationId, after.createdAt, after.id, limit)
        : await firstVariables(this.db, conversationId, limit);
    } else {
      const filter = this.features.textFilterArgument(name);
      rows = after
        ? await namedAfterOne(this.features)(
            this.db,
            conversationId,
            filter,
            after.createdAt,
            after.id,
            limit,
          )
        : await firstNamed(this.features)(this.db, conversationId, filter, limit);
    }
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

  async updateVariableValueIfAllowed(
    update: CheckedVariableUpdate,
  ): Promise<ConversationVariable | undefined> {
    const types = paddedTypes(update.acceptedTypes);
    if (!types) return undefined;
    const [row] = await setVariableValueIfAllowed(
      this.db,
      update.appId,
      update.sessionId,
      update.conversationId,
      update.variableId,
      JSON.stringify(update.value),
      update.updatedAt,
      ...types,
    );
    return row && variableFromRow(row);
  }
}
