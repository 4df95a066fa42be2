import type { Conversation, ConversationVariable } from "@service-api/domain";
import type { ConversationRepository } from "../../conversation-repository.js";

export class InMemoryConversationRepository implements ConversationRepository {
  readonly #conversations = new Map<string, Conversation>();
  /** `${conversationId} ${variableId}` → variable */
  readonly #variables = new Map<string, ConversationVariable>();

  async save(conversation: Conversation): Promise<void> {
    this.#conversations.set(conversation.id, structuredClone(conversation));
  }

  async findInApp(appId: string, conversationId: string): Promise<Conversation | undefined> {
    const conversation = this.#conversations.get(conversationId);
    return conversation?.appId === appId ? structuredClone(conversation) : undefined;
  }

  async saveVariable(variable: ConversationVariable): Promise<void> {
    this.#variables.set(`${variable.conversationId} ${variable.id}`, structuredClone(variable));
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
}
