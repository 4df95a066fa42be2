import type { ConversationRepository, VariablesPageRead } from "@service-api/ports";
import type { Kysely, Selectable } from "kysely";
import { compiledReadWith } from "../compiled-read.js";
import type { ConversationVariableTable, DatabaseSchema } from "../schema.js";
import type { SqlFeatures } from "../sql-features.js";
import {
  CONVERSATION_COLUMNS_PREFIXED,
  conversationFromPrefixed,
  sessionUser,
  variableFromRow,
} from "./conversation-rows.js";

type PageOptions = { afterId: string | null; limit: number; nameContains?: string };

/**
 * A page of variables with what its request checks, in one statement (where the database has
 * lateral joins: PostgreSQL): a row per variable of the page, each beside the conversation's
 * columns, the session's end user and the `afterId` variable's id; one row with the variable's
 * columns null for an empty page; no row without the conversation. One shape per (after a variable
 * or not, name filter or not).
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
        .select([...CONVERSATION_COLUMNS_PREFIXED, "a.id as after_id"])
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

/** `findVariablesPage` in one statement, for a database with lateral joins. */
export function variablesPageRead(features: SqlFeatures) {
  const shapes = gatheredPages.map((shape) => shape(features));
  return async (
    db: Kysely<DatabaseSchema>,
    appId: string,
    sessionId: string | null,
    conversationId: string,
    options: PageOptions,
  ): Promise<VariablesPageRead> => {
    const { afterId, limit, nameContains } = options;
    const read = shapes[(afterId === null ? 0 : 2) + (nameContains === undefined ? 0 : 1)]!;
    const filter = nameContains === undefined ? null : features.textFilterArgument(nameContains);
    const rows = await read(db, appId, sessionId, conversationId, afterId, filter, limit);
    const [first] = rows;
    if (!first) return { afterFound: false, variables: [] };
    return {
      conversation: conversationFromPrefixed(conversationId, first),
      sessionUserId: first.session_user_id ?? undefined,
      afterFound: first.after_id !== null,
      variables:
        first.id === null
          ? []
          : rows.map((row) => variableFromRow(row as Selectable<ConversationVariableTable>)),
    };
  };
}

/** `findVariablesPage` as two reads: what the request checks, then the page. */
export async function variablesPageApart(
  conversations: ConversationRepository,
  appId: string,
  sessionId: string | null,
  conversationId: string,
  options: PageOptions,
): Promise<VariablesPageRead> {
  const { afterId, limit, nameContains } = options;
  const {
    conversation,
    sessionUserId,
    variable: after,
  } = await conversations.findForVariableUpdate(appId, sessionId, conversationId, afterId);
  if (!conversation) return { afterFound: false, variables: [] };
  const variables =
    afterId === null || after
      ? await conversations.listVariablesPage(conversationId, { after, limit, nameContains })
      : [];
  return { conversation, sessionUserId, afterFound: after !== undefined, variables };
}
