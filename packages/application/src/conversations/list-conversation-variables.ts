import {
  type App,
  type ConversationVariable,
  codePointLength,
  ensureChatApp,
  InvalidParamError,
  isStorableText,
  NotFoundError,
  parseLimit,
} from "@service-api/domain";
import type { ConversationRepository, VariablesPageRead } from "@service-api/ports";

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
    ensureChatApp(input.app);
    const { user, variableName } = input;
    if (!user) throw new InvalidParamError("user", "user is required and must be a non-empty string.");
    const limit = parseLimit(input.limit);
    if (variableName !== undefined && codePointLength(variableName) > MAX_NAME_FILTER)
      throw new InvalidParamError("variable_name", "variable_name: must be at most 255 characters.");

    // The conversation, its owner check, `lastId`'s variable and the page: one read. A name filter
    // no store can hold matches no variable, so then only the checks are read.
    const session = isStorableText(user) ? user : null;
    const lastId = input.lastId ?? null;
    const read =
      variableName === undefined || isStorableText(variableName)
        ? await this.conversations.findVariablesPage(input.app.id, session, input.conversationId, {
            afterId: lastId,
            limit: limit + 1,
            nameContains: variableName,
          })
        : await this.#checksOnly(input.app.id, session, input.conversationId, lastId);
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
