import type { IdGenerator } from "@service-api/ports";
import type { ImportFile } from "../format/import-file-schema.js";

/**
 * Gives every record of the file that has no id one derived from what names it (its owner's id,
 * its name or position), so importing the same file twice finds the same records. Mutates `file`.
 */
export function assignIds(file: ImportFile, ids: IdGenerator): void {
  for (const workspace of file.workspaces) {
    workspace.id ??= ids.derive("workspace", workspace.name);
    const workspaceId = workspace.id;
    for (const member of workspace.members) member.id ??= ids.derive("member", workspaceId, member.name);
    for (const tag of workspace.tags) tag.id ??= ids.derive("tag", workspaceId, tag.type, tag.name);
    for (const dataset of workspace.datasets) {
      dataset.id ??= ids.derive("dataset", workspaceId, dataset.name);
      const datasetId = dataset.id;
      if (dataset.process_rule) dataset.process_rule.id ??= ids.derive("dataset-process-rule", datasetId);
      for (const field of dataset.metadata_fields)
        field.id ??= ids.derive("metadata-field", datasetId, field.name);
      for (const document of dataset.documents) {
        document.id ??= ids.derive("document", datasetId, document.name);
        const documentId = document.id;
        document.process_rule ??= { mode: "automatic", rules: {} };
        document.process_rule.id ??= ids.derive("document-process-rule", documentId);
        if (document.upload_file) document.upload_file.id ??= ids.derive("upload-file", documentId);
        document.segments.forEach((segment, index) => {
          segment.id ??= ids.derive("segment", documentId, String(index));
          const segmentId = segment.id;
          segment.child_chunks.forEach((child, position) => {
            child.id ??= ids.derive("child-chunk", segmentId, String(position));
          });
        });
      }
    }
    for (const app of workspace.apps) {
      app.id ??= ids.derive("app", workspaceId, app.name);
      const appId = app.id;
      const seen = new Map<string, number>();
      for (const conversation of app.conversations) {
        const nth = seen.get(conversation.user) ?? 0;
        seen.set(conversation.user, nth + 1);
        conversation.id ??= ids.derive("conversation", appId, conversation.user, String(nth));
        const conversationId = conversation.id;
        for (const variable of conversation.variables) {
          variable.id ??= ids.derive("variable", conversationId, variable.name);
        }
      }
    }
  }
}
