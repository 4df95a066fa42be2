import { DeleteDocument, GetDocument, ListDocuments, UpdateDocumentStatus } from "@service-api/application";
import type { InjectionToken } from "tsyringe";
import { defineFamily } from "../family.js";
import { documentOperations } from "./operations.js";

export interface DocumentUseCases {
  getDocument: GetDocument;
  listDocuments: ListDocuments;
  deleteDocument: DeleteDocument;
  updateDocumentStatus: UpdateDocumentStatus;
}

/** Documents of a knowledge base: read one, list them, delete one, change their status. */
export const documentsFamily = defineFamily({
  name: "documents",
  token: Symbol("DocumentUseCases") as InjectionToken<DocumentUseCases>,
  useCases: ({ store, repositories: { documents, datasets }, clock }) => ({
    getDocument: new GetDocument(documents),
    listDocuments: new ListDocuments(documents, datasets),
    deleteDocument: new DeleteDocument(documents, datasets),
    updateDocumentStatus: new UpdateDocumentStatus(store, clock),
  }),
  operations: documentOperations,
});
