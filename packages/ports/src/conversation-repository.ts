import type { Conversation, ConversationVariable, VariableType } from "@service-api/domain";

/** A page of a conversation's variables with what its request checks (`findVariablesPage`). */
export interface VariablesPageRead {
  /** The app's conversation, whatever its owner or deletion; absent when there is none. */
  conversation?: Conversation;
  /** The id of the app's end user with the session id; absent for none or a null session id. */
  sessionUserId?: string;
  /** Whether the `afterId` variable is the conversation's (false for a null `afterId`). */
  afterFound: boolean;
  /** The page, oldest first; empty without the conversation or with an `afterId` not found. */
  variables: ConversationVariable[];
}

/** A variable update and what must hold for it to be written (`updateVariableValueIfAllowed`). */
export interface CheckedVariableUpdate {
  appId: string;
  /** The conversation must be the undeleted one of the app's end user with this session id. */
  sessionId: string;
  conversationId: string;
  variableId: string;
  /** The types the value fits: the variable's must be one of them. */
  acceptedTypes: readonly VariableType[];
  value: unknown;
  updatedAt: number;
}

/** Conversations and their variables. */
export interface ConversationRepository {
  /**
   * Inserts or replaces the conversation with this id (imports). Answers "owned_elsewhere", writing
   * nothing, when the id is another app's conversation (a conversation never moves); undefined when
   * it wrote.
   */
  save(conversation: Conversation): Promise<"owned_elsewhere" | undefined>;
  /** The app's conversation with this id, whatever its owner or deletion. */
  findInApp(appId: string, conversationId: string): Promise<Conversation | undefined>;
  /** The app's conversations, deleted ones too, by id. */
  listInApp(appId: string): Promise<Conversation[]>;
  /**
   * Inserts or replaces the variable with this (conversation, id) pair: ids repeat across
   * conversations (as a workflow's variables do in Dify), so saving one never touches another
   * conversation's.
   */
  saveVariable(variable: ConversationVariable): Promise<void>;
  findVariable(conversationId: string, variableId: string): Promise<ConversationVariable | undefined>;
  /**
   * What a request on a conversation's variables checks (an update of one, a page after one), read
   * together (one statement where the store can): the app's conversation, the id of the app's end
   * user with this session id (none for a null one), and the conversation's variable (none for a
   * null id). Each is absent when there is none; nothing is read without the conversation.
   */
  findForVariableUpdate(
    appId: string,
    sessionId: string | null,
    conversationId: string,
    variableId: string | null,
  ): Promise<{ conversation?: Conversation; sessionUserId?: string; variable?: ConversationVariable }>;
  /**
   * What a page of a conversation's variables needs, read together (one statement where the store
   * can): `findForVariableUpdate`'s conversation and session end user, whether the variable
   * `afterId` is the conversation's, and the page `listVariablesPage` gives after that variable
   * (from the start for a null `afterId`; empty when `afterId` names none). The page is read
   * whoever owns the conversation: the caller checks before it answers.
   */
  findVariablesPage(
    appId: string,
    sessionId: string | null,
    conversationId: string,
    options: { afterId: string | null; limit: number; nameContains?: string },
  ): Promise<VariablesPageRead>;
  /** The conversation's variables, by name (in code point order) then id. */
  listVariables(conversationId: string): Promise<ConversationVariable[]>;
  /**
   * Up to `limit` of the conversation's variables whose name holds `nameContains` (see
   * `matchesTextFilter`), oldest first (`createdAt`, then id), starting strictly after `after`.
   */
  listVariablesPage(
    conversationId: string,
    options: { after?: { createdAt: number; id: string }; limit: number; nameContains?: string },
  ): Promise<ConversationVariable[]>;
  /**
   * Sets the variable's value and `updatedAt` in one atomic write and returns the variable as
   * stored; absent when there is no such variable. Concurrent updates end with one of the values whole.
   */
  updateVariableValue(
    conversationId: string,
    variableId: string,
    value: unknown,
    updatedAt: number,
  ): Promise<ConversationVariable | undefined>;
  /**
   * `updateVariableValue` where everything the update checks holds, checked in the same atomic
   * write: the app's conversation is not deleted and is its end user's with `sessionId`, and the
   * variable's type is one of `acceptedTypes`. Absent, with nothing written, when any does not
   * hold: the caller reads why.
   */
  updateVariableValueIfAllowed(update: CheckedVariableUpdate): Promise<ConversationVariable | undefined>;
}
