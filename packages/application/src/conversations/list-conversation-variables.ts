import {
  type App,
  type ConversationVariable,
  codePointLength,
  ensureChatApp,
  ensureUserGiven,
  InvalidParamError,
  isStorableText,
  lookupId,
  NotFoundError,
  parseLimit,
} from "@service-api/domain";
import type { ConversationRepository, VariablesPageRead } from "@service-api/ports";
import { ensureGrantedApp } from "../access/granted-app.js";
import { ensureInput, ensureOptionalText } from "../input-checks.js";

export interface ListConversationVariablesInput {
  app: App;
  conversationId: string;
  /** The query's raw values, checked in the reference's order. */
  user: string | undefined;
  limit: string | undefined;
  variableName: string | undefined;
  /** A variable's id (absent: from the start; one not in the conversation is refused). */
  lastId: string | undefined;
}

export interface VariablePage {
  limit: number;
  hasMore: boolean;
  variables: ConversationVariable[];
}

const MAX_NAME_FILTER = 255;

/**
 * Get Conversation Variables: the end user's conversation's variables, oldest first, a page after
 * `lastId`, optionally those whose name holds `variableName`. Reads create no end user.
 */
export class ListConversationVariables {
  constructor(private readonly conversations: ConversationRepository) {}

  async execute(input: ListConversationVariablesInput): Promise<VariablePage> {
    ensureInput(input);
    const app = ensureGrantedApp(input.app);
    ensureChatApp(app);
    const user = ensureUserGiven(input.user);
    const limit = parseLimit(input.limit);
    const { variableName } = input;
    ensureOptionalText(variableName, "variable_name");
    if (variableName !== undefined && codePointLength(variableName) > MAX_NAME_FILTER)
      throw new InvalidParamError("variable_name", "variable_name: must be at most 255 characters.");

    // The conversation, its owner check, `lastId`'s variable and the page: one read. A name filter
    // no store can hold matches no variable, so then only the checks are read. Ids that can name
    // nothing are looked up as `NO_ID`: not found, in the reference's order.
    const session = isStorableText(user) ? user : null;
    const conversationId = lookupId(input.conversationId);
    const lastId = input.lastId === undefined || input.lastId === null ? null : lookupId(input.lastId);
    const read =
      variableName === undefined || isStorableText(variableName)
        ? await this.conversations.findVariablesPage(app.id, session, conversationId, {
            afterId: lastId,
            limit: limit + 1,
            nameContains: variableName,
          })
        : await this.#checksOnly(app.id, session, conversationId, lastId);
    const { conversation, sessionUserId } = read;
    if (!sessionUserId || !conversation || conversation.isDeleted || conversation.endUserId !== sessionUserId)
      throw new NotFoundError("Conversation Not Exists.");
    if (lastId !== null && !read.afterFound)
      throw new InvalidParamError("last_id", "last_id: Conversation Variable Not Exists.");
    const found = read.variables;
    return { limit, hasMore: found.length > limit, variables: found.slice(0, limit) };
  }

  async #checksOnly(
    appId: string,
    session: string | null,
    conversationId: string,
    lastId: string | null,
  ): Promise<VariablesPageRead> {
    const checked = await this.conversations.findForVariableUpdate(appId, session, conversationId, lastId);
    return { ...checked, afterFound: checked.variable !== undefined, variables: [] };
  }
}
