import type { Router } from "express";
import type { DependencyContainer } from "tsyringe";
import { z } from "zod";
import { appOf, requireAppKey } from "../http/authenticate.js";
import { methodNotAllowed } from "../http/error-handler.js";
import { jsonBody } from "../http/json-body.js";
import { parseBody, pathId } from "../http/params.js";
import { sendJson } from "../http/send-json.js";
import { presentConversationVariable } from "../presenters/conversation-variable-presenter.js";
import { UPDATE_CONVERSATION_VARIABLE } from "../tokens.js";

/** Only the shape is checked here; the use case checks `user` and `value` after the app mode. */
const updateBody = z.object(
  { value: z.unknown(), user: z.unknown() },
  { error: "The body must be a JSON object." },
);

/** Update Conversation Variable: `PUT /conversations/{conversation_id}/variables/{variable_id}`. */
export function registerConversationVariableRoutes(router: Router, container: DependencyContainer): void {
  const updateVariable = container.resolve(UPDATE_CONVERSATION_VARIABLE);
  router
    .route("/conversations/:conversation_id/variables/:variable_id")
    .put(requireAppKey(container), ...jsonBody, async (req, res) => {
      const { value, user } = parseBody(updateBody, req.body);
      const variable = await updateVariable.execute({
        app: appOf(res),
        conversationId: pathId(req.params.conversation_id),
        variableId: pathId(req.params.variable_id),
        user,
        value,
      });
      sendJson(res, presentConversationVariable(variable));
    })
    .all(methodNotAllowed(["PUT"]));
}
