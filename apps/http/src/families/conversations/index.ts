import { ListConversationVariables, UpdateConversationVariable } from "@service-api/application";
import type { InjectionToken } from "tsyringe";
import { defineFamily } from "../family.js";
import { conversationOperations } from "./operations.js";

export interface ConversationUseCases {
  listConversationVariables: ListConversationVariables;
  updateConversationVariable: UpdateConversationVariable;
}

/** Conversations of chat apps: their variables. */
export const conversationsFamily = defineFamily({
  name: "conversations",
  token: Symbol("ConversationUseCases") as InjectionToken<ConversationUseCases>,
  useCases: ({ repositories: { conversations }, clock }) => ({
    listConversationVariables: new ListConversationVariables(conversations),
    updateConversationVariable: new UpdateConversationVariable(conversations, clock),
  }),
  operations: conversationOperations,
});
