import type { Router } from "express";
import type { DependencyContainer } from "tsyringe";
import { requireDatasetKey, workspaceOf } from "../http/authenticate.js";
import { methodNotAllowed } from "../http/error-handler.js";
import { firstQueryValue, pathId } from "../http/params.js";
import { sendJson } from "../http/send-json.js";
import { presentDocument } from "../presenters/document-presenter.js";
import { GET_DOCUMENT } from "../tokens.js";

/** Get Document: `GET /datasets/{dataset_id}/documents/{document_id}?metadata=all|only|without`. */
export function registerDocumentRoutes(router: Router, container: DependencyContainer): void {
  const getDocument = container.resolve(GET_DOCUMENT);
  router
    .route("/datasets/:dataset_id/documents/:document_id")
    .get(requireDatasetKey(container), async (req, res) => {
      const view = await getDocument.execute({
        workspaceId: workspaceOf(res),
        datasetId: pathId(req.params.dataset_id),
        documentId: pathId(req.params.document_id),
        metadata: firstQueryValue(req.query.metadata),
      });
      sendJson(res, presentDocument(view));
    })
    .all(methodNotAllowed(["GET", "HEAD"]));
}
