import {
  type App,
  BadRequestError,
  type ConversationVariable,
  ensureChatApp,
  ensureVariableUpdate,
  isStorableText,
  lookupId,
  matchVariableType,
  NotFoundError,
  typeMismatchMessage,
  typesAccepting,
} from "@service-api/domain";
import type { Clock, ConversationRepository } from "@service-api/ports";
import { ensureGrantedApp } from "../access/granted-app.js";
import { ensureInput } from "../input-checks.js";

export interface UpdateConversationVariableInput {
  app: App;
  conversationId: string;
  variableId: string;
  /** The body's `user`, unchecked: the use case checks it in the reference's order. */
  user: unknown;
  /** The body's `value`, unchecked; `undefined` when absent. */
  value: unknown;
}

/** Update Conversation Variable: sets a variable of the end user's conversation to a value of its type. */
export class UpdateConversationVariable {
  constructor(
    private readonly conversations: ConversationRepository,
    private readonly clock: Clock,
  ) {}

  async execute(input: UpdateConversationVariableInput): Promise<ConversationVariable> {
    ensureInput(input);
    const app = ensureGrantedApp(input.app);
    ensureChatApp(app);
    const { user, value } = ensureVariableUpdate(input);

    // A `user` no store can hold (a NUL in it) names no end user; it is not looked up. Ids that can
    // name nothing are looked up as `NO_ID`: not found, in the reference's order.
    const sessionId = isStorableText(user) ? user : null;
    const update = {
      appId: app.id,
      conversationId: lookupId(input.conversationId),
      variableId: lookupId(input.variableId),
      value,
      updatedAt: this.clock.nowSeconds(),
    };
    // The write checks as it writes: one round trip. Refused, the reads below say why.
    const acceptedTypes = typesAccepting(value);
    if (sessionId !== null && acceptedTypes.length > 0) {
      const updated = await this.conversations.updateVariableValueIfAllowed({
        ...update,
        sessionId,
        acceptedTypes,
      });
      if (updated) return updated;
    }

    const { conversation, sessionUserId, variable } = await this.conversations.findForVariableUpdate(
      app.id,
      sessionId,
      update.conversationId,
      update.variableId,
    );
    if (
      sessionId === null ||
      !sessionUserId ||
      !conversation ||
      conversation.isDeleted ||
      conversation.endUserId !== sessionUserId
    ) {
      throw new NotFoundError("Conversation Not Exists.");
    }
    if (!variable) throw new NotFoundError("Conversation Variable Not Exists.");

    const match = matchVariableType(variable.valueType, value);
    if (!match.matches)
      throw new BadRequestError(typeMismatchMessage(variable.name, variable.valueType, match.got));

    // The reads allow what the write refused (it changed in between): written if it still holds.
    const updated = await this.conversations.updateVariableValueIfAllowed({
      ...update,
      sessionId,
      acceptedTypes: [variable.valueType],
    });
    if (!updated) throw new NotFoundError("Conversation Variable Not Exists.");
    return updated;
  }
}
