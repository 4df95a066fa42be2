import type { Router } from "express";
import type { DependencyContainer } from "tsyringe";
import { z } from "zod";
import { requireDatasetKey, workspaceOf } from "../http/authenticate.js";
import { methodNotAllowed } from "../http/error-handler.js";
import { jsonBody } from "../http/json-body.js";
import { parseBody, pathId } from "../http/params.js";
import { BIND_TAGS_TO_DATASET } from "../tokens.js";

export const tagBindingBody = z.object({
  tag_ids: z.array(z.string()).min(1),
  target_id: z.string(),
});

/** Create Tag Binding: `POST /datasets/tags/binding`, 204 with no body. */
export function registerTagBindingRoutes(router: Router, container: DependencyContainer): void {
  const bindTags = container.resolve(BIND_TAGS_TO_DATASET);
  router
    .route("/datasets/tags/binding")
    .post(requireDatasetKey(container), ...jsonBody, async (req, res) => {
      const body = parseBody(tagBindingBody, req.body);
      await bindTags.execute({
        workspaceId: workspaceOf(res),
        tagIds: body.tag_ids.map((id) => pathId(id)),
        targetId: pathId(body.target_id),
      });
      res.status(204).end();
    })
    .all(methodNotAllowed(["POST"]));
}
