import {
  apiKeyKindOf,
  MAX_JSON_DEPTH,
  matchVariableType,
  nestsDeeperThan,
  tagNameProblem,
  typeMismatchMessage,
} from "@service-api/domain";
import type { ImportFile } from "../format/import-file-schema.js";
import type { ImportIssue } from "../format/issues.js";
import { checkDataset, type FileChecks } from "./check-dataset.js";
import { oneDatasetPerRule, type Report, uniqueness } from "./uniqueness.js";

/**
 * Everything the schema cannot see: repeated ids and names, dangling references, values of the
 * wrong type, document states the API never leaves.
 */
export function checkFile(file: ImportFile): ImportIssue[] {
  const issues: ImportIssue[] = [];
  const report: Report = (path, message) => {
    issues.push({ path, message });
  };
  const unique = uniqueness(report);
  const keys = uniqueness(report);
  const checks: FileChecks = { report, unique, ruleDatasets: oneDatasetPerRule(report) };

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
    const datasetNames = uniqueness(report);
    for (const [d, dataset] of workspace.datasets.entries()) {
      datasetNames("dataset name", dataset.name, `${at}.datasets[${d}].name`);
      checkMember(`${at}.datasets[${d}].created_by`, dataset.created_by);
      checkMember(`${at}.datasets[${d}].updated_by`, dataset.updated_by);
      checkDataset(dataset, `${at}.datasets[${d}]`, { workspace, members }, checks);
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
        // Variable ids repeat across conversations, as in Dify, where they are the app's.
        const variables = uniqueness(report);
        conversation.variables.forEach((variable, v) => {
          const variableAt = `${conversationAt}.variables[${v}]`;
          variables("variable id", variable.id!, variableAt);
          variables("variable name", variable.name, `${variableAt}.name`);
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
