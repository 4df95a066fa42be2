import { lookupId } from "@service-api/domain";
import { ensureBoolean, ensureList, ensureObject } from "../input-checks.js";
import type { DocumentMetadataOperation } from "./set-document-metadata.js";

/**
 * The operations as a direct caller gives them, their shape checked before anything is read, as the
 * API's body is: lists and objects where they go, `partialUpdate` true or false (absent: false, the
 * API's default). Ids that can name nothing are looked up as `NO_ID`, so they answer not found in turn.
 */
export function checkedOperations(operations: unknown): DocumentMetadataOperation[] {
  ensureList(operations, "operation_data");
  return operations.map((operation, index) => {
    const at = `operation_data.${index}`;
    ensureObject(operation, at);
    const { documentId, metadataList, partialUpdate = false } = operation;
    ensureList(metadataList, `${at}.metadata_list`);
    ensureBoolean(partialUpdate, `${at}.partial_update`);
    return {
      documentId: lookupId(documentId),
      metadataList: metadataList.map((item, position) => {
        ensureObject(item, `${at}.metadata_list.${position}`);
        return { id: lookupId(item.id), value: item.value };
      }),
      partialUpdate,
    };
  });
}
