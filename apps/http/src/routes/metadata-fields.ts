import type { Router } from "express";
import type { DependencyContainer } from "tsyringe";
import { requireDatasetKey, workspaceOf } from "../http/authenticate.js";
import { methodNotAllowed } from "../http/error-handler.js";
import { pathId } from "../http/params.js";
import { sendJson } from "../http/send-json.js";
import { presentMetadataFields } from "../presenters/metadata-fields-presenter.js";
import { LIST_METADATA_FIELDS } from "../tokens.js";

/** List Metadata Fields: `GET /datasets/{dataset_id}/metadata`. */
export function registerMetadataFieldRoutes(router: Router, container: DependencyContainer): void {
  const listFields = container.resolve(LIST_METADATA_FIELDS);
  router
    .route("/datasets/:dataset_id/metadata")
    .get(requireDatasetKey(container), async (req, res) => {
      const list = await listFields.execute({
        workspaceId: workspaceOf(res),
        datasetId: pathId(req.params.dataset_id),
      });
      sendJson(res, presentMetadataFields(list));
    })
    .all(methodNotAllowed(["GET", "HEAD"]));
}
