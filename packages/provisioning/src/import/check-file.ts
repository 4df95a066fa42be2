import {
  apiKeyKindOf,
  MAX_JSON_DEPTH,
  matchVariableType,
  metadataFieldNameProblem,
  nestsDeeperThan,
  tagNameProblem,
  typedMetadataValue,
  typeMismatchMessage,
} from "@service-api/domain";
import type { DatasetInput, ImportFile, WorkspaceInput } from "../format/import-file-schema.js";
import type { ImportIssue } from "../format/issues.js";

type Report = (path: string, message: string) => void;

/** Everything the schema cannot see: repeated ids and names, dangling references, values of the wrong type. */
export function checkFile(file: ImportFile): ImportIssue[] {
  const issues: ImportIssue[] = [];
  const report: Report = (path, message) => {
    issues.push({ path, message });
  };
  const unique = uniqueness(report);
  const keys = uniqueness(report);

  file.workspaces.forEach((workspace, w) => {
    const at = `workspaces[${w}]`;
    unique("workspace", workspace.id!, at);
    const members = new Set(workspace.members.map((member) => member.id));
    const owners = uniqueness(report);
    for (const [m, member] of workspace.members.entries()) {
      unique("member", member.id!, `${at}.members[${m}]`);
      if (member.role === "owner") owners("owner", "of a workspace", `${at}.members[${m}].role`);
    }
    const tagNames = uniqueness(report);
    for (const [t, tag] of workspace.tags.entries()) {
      unique("tag", tag.id!, `${at}.tags[${t}]`);
      const problem = tagNameProblem(tag.name);
      if (problem) report(`${at}.tags[${t}].name`, problem.replace(/^name: /, ""));
      tagNames(`${tag.type} tag name`, tag.name, `${at}.tags[${t}].name`);
    }
    const checkMember = (path: string, memberId: string | null | undefined) => {
      if (memberId !== undefined && memberId !== null && !members.has(memberId))
        report(path, `${memberId} is not a member of this workspace`);
    };
    const appTags = new Set(workspace.tags.filter((tag) => tag.type === "app").map((tag) => tag.id));
    workspace.dataset_api_keys.forEach((key, k) => {
      keys("key", key, `${at}.dataset_api_keys[${k}]`);
      if (!key.startsWith("sha256:") && apiKeyKindOf(key) !== "dataset") {
        report(`${at}.dataset_api_keys[${k}]`, "a knowledge key must start with ds-");
      }
    });
    for (const [d, dataset] of workspace.datasets.entries()) {
      checkMember(`${at}.datasets[${d}].created_by`, dataset.created_by);
      checkMember(`${at}.datasets[${d}].updated_by`, dataset.updated_by);
      checkDataset(dataset, `${at}.datasets[${d}]`, workspace, members, unique, report);
    }
    workspace.apps.forEach((app, a) => {
      const appAt = `${at}.apps[${a}]`;
      unique("app", app.id!, appAt);
      checkMember(`${appAt}.created_by`, app.created_by);
      app.tag_ids.forEach((tagId, t) => {
        if (!appTags.has(tagId))
          report(`${appAt}.tag_ids[${t}]`, `tag ${tagId} is not an app tag of this workspace`);
      });
      app.api_keys.forEach((key, k) => {
        keys("key", key, `${appAt}.api_keys[${k}]`);
        if (!key.startsWith("sha256:") && apiKeyKindOf(key) !== "app") {
          report(`${appAt}.api_keys[${k}]`, "an app key must start with app-");
        }
      });
      app.conversations.forEach((conversation, c) => {
        const conversationAt = `${appAt}.conversations[${c}]`;
        unique("conversation", conversation.id!, conversationAt);
        const names = uniqueness(report);
        conversation.variables.forEach((variable, v) => {
          const variableAt = `${conversationAt}.variables[${v}]`;
          names("variable name", variable.name, `${variableAt}.name`);
          if (nestsDeeperThan(variable.value, MAX_JSON_DEPTH)) {
            report(`${variableAt}.value`, `nests deeper than ${MAX_JSON_DEPTH} levels`);
            return;
          }
          const match = matchVariableType(variable.value_type, variable.value);
          if (!match.matches) {
            report(`${variableAt}.value`, typeMismatchMessage(variable.name, variable.value_type, match.got));
          }
        });
      });
    });
  });
  return issues;
}

function checkDataset(
  dataset: DatasetInput,
  at: string,
  workspace: WorkspaceInput,
  members: Set<string | undefined>,
  unique: ReturnType<typeof uniqueness>,
  report: Report,
): void {
  unique("dataset", dataset.id!, at);
  const knowledgeTags = new Set(
    workspace.tags.filter((tag) => tag.type === "knowledge").map((tag) => tag.id),
  );
  dataset.tag_ids.forEach((tagId, t) => {
    if (!knowledgeTags.has(tagId))
      report(`${at}.tag_ids[${t}]`, `tag ${tagId} is not a knowledge tag of this workspace`);
  });
  for (const [path, rule] of [
    [`${at}.process_rule.rules`, dataset.process_rule?.rules],
    ...dataset.documents.map(
      (document, i) => [`${at}.documents[${i}].process_rule.rules`, document.process_rule?.rules] as const,
    ),
  ] as const) {
    if (nestsDeeperThan(rule, MAX_JSON_DEPTH)) report(path, `nests deeper than ${MAX_JSON_DEPTH} levels`);
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
    const documentAt = `${at}.documents[${i}]`;
    unique("document", document.id!, documentAt);
    if (document.created_by === undefined && workspace.members.length === 0) {
      report(`${documentAt}.created_by`, "is required when the workspace lists no members");
    }
    for (const [path, memberId] of [
      [`${documentAt}.created_by`, document.created_by],
      [`${documentAt}.upload_file.created_by`, document.upload_file?.created_by],
    ] as const) {
      if (memberId !== undefined && !members.has(memberId))
        report(path, `${memberId} is not a member of this workspace`);
    }
    if (document.upload_file) {
      unique("upload file", document.upload_file.id!, `${documentAt}.upload_file`);
      if (document.data_source_type !== "upload_file") {
        report(`${documentAt}.upload_file`, "only documents whose data_source_type is upload_file have one");
      }
    }
    for (const [s, segment] of document.segments.entries()) {
      unique("segment", segment.id!, `${documentAt}.segments[${s}]`);
    }
    for (const [fieldName, value] of Object.entries(document.metadata)) {
      const type = fields.get(fieldName);
      const path = `${documentAt}.metadata${/^[A-Za-z_$][\w$]*$/.test(fieldName) ? `.${fieldName}` : `[${JSON.stringify(fieldName)}]`}`;
      const typed = type && typedMetadataValue(type, value);
      if (!typed) report(path, `field "${fieldName}" is not defined for this dataset`);
      else if (!typed.ok) report(path, `field "${fieldName}" holds ${type} values: ${typed.reason}`);
    }
  });
}

/** Names the value in a message; never a key, which is a secret. */
function describe(kind: string, value: string): string {
  if (kind === "key") return "";
  return ` ${kind.endsWith("name") ? JSON.stringify(value) : value}`;
}

/** Reports a value seen twice for the same kind, naming where it was first. */
function uniqueness(report: Report) {
  const seen = new Map<string, string>();
  return (kind: string, value: string, path: string) => {
    const key = `${kind}\u0000${value}`;
    const first = seen.get(key);
    if (first === undefined) seen.set(key, path);
    else report(path, `duplicate ${kind}${describe(kind, value)} (first at ${first})`);
  };
}
