import { type Conversation, type ConversationVariable, matchesTextFilter } from "@service-api/domain";
import type {
  CheckedVariableUpdate,
  ConversationRepository,
  VariablesPageRead,
} from "../../conversation-repository.js";
import { byName, byText, type Snapshotting } from "./snapshotting.js";

export class InMemoryConversationRepository implements ConversationRepository, Snapshotting {
  #conversations = new Map<string, Conversation>();
  /** `${conversationId} ${variableId}` → variable */
  #variables = new Map<string, ConversationVariable>();

  snapshot(): unknown {
    return structuredClone([this.#conversations, this.#variables]);
  }

  restore(snapshot: unknown): void {
    [this.#conversations, this.#variables] = snapshot as [
      Map<string, Conversation>,
      Map<string, ConversationVariable>,
    ];
  }

  async listInApp(appId: string): Promise<Conversation[]> {
    const conversations = [...this.#conversations.values()].filter(
      (conversation) => conversation.appId === appId,
    );
    return structuredClone(conversations.sort((a, b) => byText(a.id, b.id)));
  }

  async listVariables(conversationId: string): Promise<ConversationVariable[]> {
    const variables = [...this.#variables.values()].filter(
      (variable) => variable.conversationId === conversationId,
    );
    return structuredClone(variables.sort(byName));
  }

  async listVariablesPage(
    conversationId: string,
    options: { after?: { createdAt: number; id: string }; limit: number; nameContains?: string },
  ): Promise<ConversationVariable[]> {
    const { after, limit, nameContains } = options;
    const variables = [...this.#variables.values()]
      .filter((variable) => variable.conversationId === conversationId)
      .filter((variable) => nameContains === undefined || matchesTextFilter(variable.name, nameContains))
      .filter(
        (variable) =>
          !after ||
          variable.createdAt > after.createdAt ||
          (variable.createdAt === after.createdAt && byText(variable.id, after.id) > 0),
      )
      .sort((a, b) => a.createdAt - b.createdAt || byText(a.id, b.id));
    return structuredClone(variables.slice(0, limit));
  }

  async save(conversation: Conversation): Promise<"owned_elsewhere" | undefined> {
    const stored = this.#conversations.get(conversation.id);
    if (stored && stored.appId !== conversation.appId) return "owned_elsewhere";
    this.#conversations.set(conversation.id, structuredClone(conversation));
    return undefined;
  }

  async findInApp(appId: string, conversationId: string): Promise<Conversation | undefined> {
    const conversation = this.#conversations.get(conversationId);
    return conversation?.appId === appId ? structuredClone(conversation) : undefined;
  }

  async saveVariable(variable: ConversationVariable): Promise<void> {
    this.#variables.set(`${variable.conversationId} ${variable.id}`, structuredClone(variable));
  }

  /** Set by the store: the end user of a session, which this repository does not hold. */
  endUserIdOf: (appId: string, sessionId: string) => Promise<string | undefined> = async () => undefined;

  async findForVariableUpdate(
    appId: string,
    sessionId: string | null,
    conversationId: string,
    variableId: string | null,
  ) {
    const conversation = await this.findInApp(appId, conversationId);
    if (!conversation) return {};
    return {
      conversation,
      sessionUserId: sessionId === null ? undefined : await this.endUserIdOf(appId, sessionId),
      variable: variableId === null ? undefined : await this.findVariable(conversationId, variableId),
    };
  }

  async findVariablesPage(
    appId: string,
    sessionId: string | null,
    conversationId: string,
    options: { afterId: string | null; limit: number; nameContains?: string },
  ): Promise<VariablesPageRead> {
    const { afterId, limit, nameContains } = options;
    const {
      conversation,
      sessionUserId,
      variable: after,
    } = await this.findForVariableUpdate(appId, sessionId, conversationId, afterId);
    if (!conversation) return { afterFound: false, variables: [] };
    const variables =
      afterId === null || after
        ? await this.listVariablesPage(conversationId, { after, limit, nameContains })
        : [];
    return { conversation, sessionUserId, afterFound: after !== undefined, variables };
  }

  async findVariable(conversationId: string, variableId: string): Promise<ConversationVariable | undefined> {
    return structuredClone(this.#variables.get(`${conversationId} ${variableId}`));
  }

  async updateVariableValue(
    conversationId: string,
    variableId: string,
    value: unknown,
    updatedAt: number,
  ): Promise<ConversationVariable | undefined> {
    const variable = this.#variables.get(`${conversationId} ${variableId}`);
    if (!variable) return undefined;
    variable.value = structuredClone(value);
    variable.updatedAt = updatedAt;
    return structuredClone(variable);
  }

  async updateVariableValueIfAllowed(
    update: CheckedVariableUpdate,
  ): Promise<ConversationVariable | undefined> {
    const { appId, sessionId, conversationId, variableId } = update;
    const { conversation, sessionUserId, variable } = await this.findForVariableUpdate(
      appId,
      sessionId,
      conversationId,
      variableId,
    );
    const allowed =
      conversation !== undefined &&
      !conversation.isDeleted &&
      sessionUserId !== undefined &&
      conversation.endUserId === sessionUserId &&
      variable !== undefined &&
      update.acceptedTypes.includes(variable.valueType);
    if (!allowed) return undefined;
    return this.updateVariableValue(conversationId, variableId, update.value, update.updatedAt);
  }
}
