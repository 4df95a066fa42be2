import { z } from "zod";
import { id } from "../../api/common-schemas.js";
import { ALWAYS, APP, BODY, invalid, notFound } from "../../api/errors.js";
import { defineOperation } from "../../api/operation.js";
import { pathId } from "../../http/params.js";
import { VARIABLE_PAGE_EXAMPLE } from "./examples.js";
import type { ConversationUseCases } from "./index.js";
import { presentConversationVariable } from "./presenters.js";
import { conversationVariable, updateVariableBody, variableList } from "./schemas.js";

const TAG = "Conversations";
const NOT_CHAT = {
  status: 400,
  code: "not_chat_app",
  message: "Please check if your app mode matches the right API route.",
};
const USER_REQUIRED = invalid("user is required and must be a non-empty string.");
const NO_CONVERSATION = notFound("Conversation Not Exists.");
const EXAMPLE = {
  id: "0d3f5a10-6c2e-4b7d-9a41-5e8c2f1b7a41",
  name: "preferred_language",
  value_type: "string",
  value: "French",
  description: "The language the user asked to be answered in.",
  created_at: 1767225600,
  updated_at: 1767229200,
};

export const conversationOperations = (useCases: ConversationUseCases) => [
  defineOperation({
    operationId: "getConversationVariables",
    method: "get",
    path: "/conversations/{conversation_id}/variables",
    tag: TAG,
    summary: "List a conversation's variables",
    description: "Chat apps only. Oldest first; a page starts after `last_id`. Reads create no end user.",
    key: "app",
    params: z.object({ conversation_id: id("The conversation.") }),
    query: z
      .object({
        user: z.string().optional().meta({ description: "The end user, as the app names it." }),
        last_id: z.string().optional().meta({ description: "The last variable of the previous page." }),
        limit: z.string().optional().meta({ type: "integer", minimum: 1, maximum: 100, default: 20 }),
        variable_name: z
          .string()
          .optional()
          .meta({ description: "A substring of the name; ASCII letters in either case." }),
      })
      // Checked after the app mode, so optional to the route's parser, but required all the same.
      .meta({ required: ["user"] }),
    success: {
      status: 200,
      description: "A page of variables.",
      schema: variableList,
      example: VARIABLE_PAGE_EXAMPLE,
    },
    errors: [
      ...ALWAYS,
      ...APP,
      NOT_CHAT,
      USER_REQUIRED,
      invalid("limit: must be an integer from 1 to 100."),
      invalid("last_id: Conversation Variable Not Exists."),
      NO_CONVERSATION,
    ],
    async handle({ app, params, query }) {
      const page = await useCases.listConversationVariables.execute({
        app,
        conversationId: params.conversation_id,
        user: query.user,
        limit: query.limit,
        variableName: query.variable_name,
        // Empty: from the start; else the id as stored (one that is not a UUID names nothing).
        lastId: query.last_id ? pathId(query.last_id) : undefined,
      });
      return {
        limit: page.limit,
        has_more: page.hasMore,
        data: page.variables.map(presentConversationVariable),
      };
    },
  }),
  defineOperation({
    operationId: "updateChatConversationVariable",
    method: "put",
    path: "/conversations/{conversation_id}/variables/{variable_id}",
    tag: TAG,
    summary: "Update a conversation variable",
    description: "Chat apps only. The value must match the variable's type.",
    key: "app",
    params: z.object({ conversation_id: id("The conversation."), variable_id: id("The variable.") }),
    body: updateVariableBody,
    success: {
      status: 200,
      description: "The variable, updated.",
      schema: conversationVariable,
      example: EXAMPLE,
    },
    errors: [
      ...ALWAYS,
      ...APP,
      ...BODY,
      NOT_CHAT,
      USER_REQUIRED,
      invalid("value is required."),
      NO_CONVERSATION,
      notFound("Conversation Variable Not Exists."),
      {
        status: 400,
        code: "bad_request",
        message: "Type mismatch: variable 'topic' expects string, but got number type",
      },
    ],
    async handle({ app, params, body }) {
      const variable = await useCases.updateConversationVariable.execute({
        app,
        conversationId: params.conversation_id,
        variableId: params.variable_id,
        user: body.user,
        value: body.value,
      });
      return presentConversationVariable(variable);
    },
  }),
];
