import { describe, expect, it } from "vitest";
import { AUTOMATIC_RULES } from "../chunking/rules.js";
import {
  type RequestedProcessRule,
  type RuleRequestKind,
  resolveProcessRule,
} from "./resolve-process-rule.js";
import type { ValidProcessRule } from "./validate-process-rule.js";

// DocumentAddByTextApi / DocumentAddByFileApi (controllers/service_api/dataset/document.py), then
// DocumentService.save_document_with_dataset_id and update_document_with_dataset_id.

const latest = { id: "rule-latest", mode: "custom", rules: { segmentation: { max_tokens: 700 } } };
const automatic: ValidProcessRule = { mode: "automatic", rules: AUTOMATIC_RULES };
const custom: ValidProcessRule = {
  mode: "custom",
  rules: {
    pre_processing_rules: [],
    segmentation: { separator: "\n", max_tokens: 300, chunk_overlap: 0 },
    parent_mode: null,
    subchunk_segmentation: null,
  },
};
const ruleless: RequestedProcessRule = { mode: "hierarchical" };

const REUSE = { kind: "reuse", rule: latest };
const AUTOMATIC = { kind: "insert", rule: automatic };
const CUSTOM = { kind: "insert", rule: custom };
const KEEP = { kind: "keep" };
const REQUIRED = { kind: "refused", message: "process_rule is required." };
const NOT_FOUND = { kind: "refused", message: "No process rule found." };

describe("resolveProcessRule", () => {
  it.each([
    ["create-by-text", "no key, no dataset rule", undefined, undefined, AUTOMATIC],
    ["create-by-text", "no key", undefined, latest, REUSE],
    ["create-by-text", "null (dropped as absent)", null, latest, REUSE],
    ["create-by-text", "null, no dataset rule", null, undefined, AUTOMATIC],
    ["create-by-text", "a custom rule", custom, latest, CUSTOM],
    ["create-by-text", "automatic", automatic, latest, AUTOMATIC],
    ["create-by-text", "a rule without rules", ruleless, latest, REUSE],
    ["create-by-text", "a rule without rules, no dataset rule", ruleless, undefined, NOT_FOUND],
    ["create-by-file", "no key, no dataset rule", undefined, undefined, REQUIRED],
    ["create-by-file", "no key", undefined, latest, REUSE],
    ["create-by-file", "null (a key that is there)", null, latest, REQUIRED],
    ["create-by-file", "null, no dataset rule", null, undefined, REQUIRED],
    ["create-by-file", "automatic, no dataset rule", automatic, undefined, AUTOMATIC],
    ["create-by-file", "a custom rule", custom, latest, CUSTOM],
    ["create-by-file", "a rule without rules", ruleless, latest, REUSE],
    ["create-by-file", "a rule without rules, no dataset rule", ruleless, undefined, NOT_FOUND],
    ["update", "no key", undefined, latest, KEEP],
    ["update", "null", null, latest, KEEP],
    ["update", "automatic", automatic, latest, AUTOMATIC],
    ["update", "a custom rule, no dataset rule", custom, undefined, CUSTOM],
    ["update", "a rule without rules", ruleless, latest, NOT_FOUND],
  ] as const)("resolves %s given %s to the expected rule", (kind, _label, requested, stored, expected) => {
    const request = { kind: kind as RuleRequestKind, requested, latest: stored };
    expect(resolveProcessRule<typeof latest>(request)).toEqual(expected);
  });

  it("hands the dataset's latest rule back as it is stored", () => {
    const resolution = resolveProcessRule({ kind: "create-by-file", requested: undefined, latest });
    expect(resolution.kind === "reuse" && resolution.rule).toBe(latest);
  });
});
