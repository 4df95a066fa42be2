import {
  MAX_JSON_DEPTH,
  type MetadataFieldType,
  metadataFieldNameProblem,
  nestsDeeperThan,
  typedMetadataValue,
} from "@service-api/domain";
import { decodedLength } from "../format/base64.js";
import type { DatasetInput, DocumentInput, WorkspaceInput } from "../format/import-file-schema.js";
import { type oneDatasetPerRule, type Report, uniqueness } from "./uniqueness.js";

/** The checks that span the whole file, and where problems go. */
export interface FileChecks {
  report: Report;
  /** Ids of every kind, unique in the file. */
  unique: ReturnType<typeof uniqueness>;
  ruleDatasets: ReturnType<typeof oneDatasetPerRule>;
}

/** What a dataset's checks need of its workspace. */
interface DatasetScope {
  workspace: WorkspaceInput;
  members: Set<string | undefined>;
}

export function checkDataset(
  dataset: DatasetInput,
  at: string,
  scope: DatasetScope,
  checks: FileChecks,
): void {
  const { unique, report, ruleDatasets } = checks;
  const datasetId = dataset.id!;
  unique("dataset", datasetId, at);
  const knowledgeTags = new Set(
    scope.workspace.tags.filter((tag) => tag.type === "knowledge").map((tag) => tag.id),
  );
  dataset.tag_ids.forEach((tagId, t) => {
    if (!knowledgeTags.has(tagId))
      report(`${at}.tag_ids[${t}]`, `tag ${tagId} is not a knowledge tag of this workspace`);
  });
  for (const [path, rule] of [
    [`${at}.process_rule`, dataset.process_rule],
    ...dataset.documents.map(
      (document, i) => [`${at}.documents[${i}].process_rule`, document.process_rule] as const,
    ),
  ] as const) {
    if (!rule) continue;
    ruleDatasets(rule.id!, datasetId, path);
    if (nestsDeeperThan(rule.rules, MAX_JSON_DEPTH))
      report(`${path}.rules`, `nests deeper than ${MAX_JSON_DEPTH} levels`);
  }
  const fieldNames = uniqueness(report);
  dataset.metadata_fields.forEach((field, f) => {
    unique("metadata field", field.id!, `${at}.metadata_fields[${f}]`);
    const problem = metadataFieldNameProblem(field.name);
    if (problem) report(`${at}.metadata_fields[${f}].name`, problem.replace(/^name: /, ""));
    fieldNames("field name", field.name, `${at}.metadata_fields[${f}].name`);
  });
  const fields = new Map(dataset.metadata_fields.map((field) => [field.name, field.type]));
  dataset.documents.forEach((document, i) => {
    checkDocument(document, `${at}.documents[${i}]`, { ...scope, fields }, checks);
  });
}

function checkDocument(
  document: DocumentInput,
  at: string,
  { workspace, members, fields }: DatasetScope & { fields: Map<string, MetadataFieldType> },
  checks: FileChecks,
): void {
  const { unique, report } = checks;
  unique("document", document.id!, at);
  if (document.created_by === undefined && workspace.members.length === 0) {
    report(`${at}.created_by`, "is required when the workspace lists no members");
  }
  for (const [path, memberId] of [
    [`${at}.created_by`, document.created_by],
    [`${at}.upload_file.created_by`, document.upload_file?.created_by],
  ] as const) {
    if (memberId !== undefined && !members.has(memberId))
      report(path, `${memberId} is not a member of this workspace`);
  }
  const file = document.upload_file;
  if (file) {
    unique("upload file", file.id!, `${at}.upload_file`);
    if (document.data_source_type !== "upload_file") {
      report(`${at}.upload_file`, "only documents whose data_source_type is upload_file have one");
    }
    const length = file.content_base64 === undefined ? file.size : decodedLength(file.content_base64);
    if (length !== file.size)
      report(
        `${at}.upload_file.content_base64`,
        `holds ${length} byte${length === 1 ? "" : "s"} where size is ${file.size}`,
      );
  }
  checkDocumentState(document, at, report);
  for (const [s, segment] of document.segments.entries()) {
    unique("segment", segment.id!, `${at}.segments[${s}]`);
    for (const [c, child] of segment.child_chunks.entries())
      unique("child chunk", child.id!, `${at}.segments[${s}].child_chunks[${c}]`);
  }
  for (const [fieldName, value] of Object.entries(document.metadata)) {
    const type = fields.get(fieldName);
    const path = `${at}.metadata${/^[A-Za-z_$][\w$]*$/.test(fieldName) ? `.${fieldName}` : `[${JSON.stringify(fieldName)}]`}`;
    const typed = type && typedMetadataValue(type, value);
    if (!typed) report(path, `field "${fieldName}" is not defined for this dataset`);
    else if (!typed.ok) report(path, `field "${fieldName}" holds ${type} values: ${typed.reason}`);
  }
}

/**
 * Refuses what the document's state leaves null, as the API keeps it: Dify documents `disabled_at`
 * and `disabled_by` as null when enabled and `completed_at` and `indexing_latency` as null until
 * indexing completes; enabling and un-archiving clear what disabling and archiving set.
 */
function checkDocumentState(document: DocumentInput, at: string, report: Report): void {
  const mustBeNull = (fields: readonly (keyof DocumentInput)[], when: string) => {
    for (const field of fields) {
      if ((document[field] ?? null) !== null) report(`${at}.${field}`, `must be null ${when}`);
    }
  };
  if (document.enabled) mustBeNull(["disabled_at", "disabled_by"], "when enabled is true");
  if (!document.archived) mustBeNull(["archived_at", "archived_by"], "when archived is false");
  if (document.indexing_status !== "completed")
    mustBeNull(["completed_at", "indexing_latency"], "until indexing_status is completed");
}
