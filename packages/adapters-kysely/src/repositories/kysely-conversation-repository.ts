import type { Conversation, ConversationVariable, VariableType } from "@service-api/domain";
import type { ConversationRepository, VariablesPageRead } from "@service-api/ports";
import type { Kysely, Selectable } from "kysely";
import { compiledRead, compiledReadWith } from "../compiled-read.js";
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

/** The id of the app's end user with this session id, as the column `session_user_id`. */
const sessionUser = (db: Kysely<DatabaseSchema>, appId: string, sessionId: string | null) =>
  db
    .selectFrom("end_users")
    .select("end_users.id")
    .where("end_users.app_id", "=", appId)
    .where("end_users.session_id", "=", sessionId as string)
    .as("session_user_id");

/** The conversation (columns prefixed `conversation_`), its session's end user, and the variable. */
const forVariableUpdate = compiledRead(
  (db, appId: string, sessionId: string | null, conversationId: string, variableId: string | null) =>
    db
      .selectFrom("conversations as c")
      .leftJoin("conversation_variables as v", (join) =>
        join.onRef("v.conversation_id", "=", "c.id").on("v.id", "=", variableId as string),
      )
      .select([
        "c.app_id as conversation_app_id",
        "c.end_user_id as conversation_end_user_id",
        "c.is_deleted as conversation_is_deleted",
      ])
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

/**
 * A page of variables with what its request checks, in one statement (where reads are gathered):
 * a row per variable of the page, each beside the conversation's columns, the session's end user
 * and the `afterId` variable's id; one row with the variable's columns null for an empty page; no
 * row without the conversation. One shape per (after a variable or not, name filter or not).
 */
const gatheredPage = (after: boolean, named: boolean) =>
  compiledReadWith(
    (
      db,
      features,
      appId: string,
      sessionId: string | null,
      conversationId: string,
      afterId: string | null,
      name: string | null,
      limit: number,
    ) =>
      db
        .selectFrom("conversations as c")
        .leftJoin("conversation_variables as a", (join) =>
          join.onRef("a.conversation_id", "=", "c.id").on("a.id", "=", afterId as string),
        )
        .leftJoinLateral(
          (eb) => {
            let page = eb
              .selectFrom("conversation_variables as v")
              .selectAll("v")
              .whereRef("v.conversation_id", "=", "c.id");
            if (after) {
              page = page.where((w) =>
                w.or([
                  w("v.created_at", ">", w.ref("a.created_at")),
                  w.and([w("v.created_at", "=", w.ref("a.created_at")), w("v.id", ">", w.ref("a.id"))]),
                ]),
              );
            }
            if (named) page = page.where(features.containsText("v.name", name as string));
            return page.orderBy("v.created_at").orderBy("v.id").limit(limit).as("p");
          },
          (join) => join.onTrue(),
        )
        .select([
          "c.app_id as conversation_app_id",
          "c.end_user_id as conversation_end_user_id",
          "c.is_deleted as conversation_is_deleted",
          "a.id as after_id",
        ])
        .selectAll("p")
        .select(sessionUser(db, appId, sessionId))
        .where("c.id", "=", conversationId)
        .where("c.app_id", "=", appId)
        .orderBy("p.created_at")
        .orderBy("p.id"),
  );
const gatheredPages = [
  gatheredPage(false, false),
  gatheredPage(false, true),
  gatheredPage(true, false),
  gatheredPage(true, true),
];

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

  async findForVariableUpdate(
    appId: string,
    sessionId: string | null,
    conversationId: string,
    variableId: string | null,
  ) {
    const [row] = await forVariableUpdate(this.db, appId, sessionId, conversationId, variableId);
    if (!row) return {};
    return {
      conversation: conversationFromRow({
        id: conversationId,
        app_id: row.conversation_app_id,
        end_user_id: row.conversation_end_user_id,
        is_deleted: row.conversation_is_deleted,
      }),
      sessionUserId: row.session_user_id ?? undefined,
      variable: row.id === null ? undefined : variableFromRow(row as Selectable<ConversationVariableTable>),
    };
  }

  async findVariablesPage(
    appId: string,
    sessionId: string | null,
    conversationId: string,
    options: { afterId: string | null; limit: number; nameContains?: string },
  ): Promise<VariablesPageRead> {
    const { afterId, limit, nameContains } = options;
    const shape = gatheredPages[(afterId === null ? 0 : 2) + (nameContains === undefined ? 0 : 1)]!;
    const rows = await shape(this.features)(
      this.db,
      appId,
      sessionId,
      conversationId,
      afterId,
      nameContains ?? null,
      limit,
    );
    const [first] = rows;
    if (!first) return { afterFound: false, variables: [] };
    return {
      conversation: conversationFromRow({
        id: conversationId,
        app_id: first.conversation_app_id,
        end_user_id: first.conversation_end_user_id,
        is_deleted: first.conversation_is_deleted,
      }),
      sessionUserId: first.session_user_id ?? undefined,
      afterFound: first.after_id !== null,
      variables:
        first.id === null
          ? []
          : rows.map((row) => variableFromRow(row as Selectable<ConversationVariableTable>)),
    };
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
      rows = after
        ? await namedAfterOne(this.features)(this.db, conversationId, name, after.createdAt, after.id, limit)
        : await firstNamed(this.features)(this.db, conversationId, name, limit);
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
}
