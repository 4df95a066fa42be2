import { describe, expect, it } from "vitest";
import { validateProcessRule } from "./validate-process-rule.js";

// Expected values follow DocumentService.process_rule_args_validate (services/dataset_service.py).

const segmentation = { separator: "\n\n", max_tokens: 500, chunk_overlap: 50 };
const items = [{ id: "remove_extra_spaces", enabled: true }];
const sent = (mode: string, rules: Record<string, unknown>) => ({
  mode,
  rules: { pre_processing_rules: items, segmentation, ...rules },
});
const refusal = (value: unknown) => {
  const check = validateProcessRule(value);
  return check.ok ? undefined : check.message;
};

describe("validateProcessRule checking a rule's contents", () => {
  it.each([
    ["custom without rules", { mode: "custom" }, "Process rule rules is required"],
    ["custom with null rules", { mode: "custom", rules: null }, "Process rule rules is required"],
    ["hierarchical without rules", { mode: "hierarchical" }, "Process rule rules is required"],
    ["empty rules", { mode: "custom", rules: {} }, "Process rule pre_processing_rules is required"],
    [
      "null pre-processing rules",
      sent("custom", { pre_processing_rules: null }),
      "Process rule pre_processing_rules is required",
    ],
    [
      "a pre-processing rule with an empty id",
      sent("custom", { pre_processing_rules: [{ id: "", enabled: true }] }),
      "Process rule pre_processing_rules id is required",
    ],
    ["no segmentation", sent("custom", { segmentation: undefined }), "Process rule segmentation is required"],
    [
      "a null segmentation",
      sent("hierarchical", { segmentation: null }),
      "Process rule segmentation is required",
    ],
    [
      "an empty separator",
      sent("custom", { segmentation: { ...segmentation, separator: "" } }),
      "Process rule segmentation separator is required",
    ],
    [
      "an empty separator on a full-doc parent",
      sent("hierarchical", { parent_mode: "full-doc", segmentation: { separator: "", max_tokens: 0 } }),
      "Process rule segmentation separator is required",
    ],
    [
      "max_tokens 0 on custom",
      sent("custom", { segmentation: { max_tokens: 0 } }),
      "Process rule segmentation max_tokens is required",
    ],
    [
      "max_tokens 0 on a custom rule naming full-doc (the exemption is hierarchical's)",
      sent("custom", { parent_mode: "full-doc", segmentation: { max_tokens: 0 } }),
      "Process rule segmentation max_tokens is required",
    ],
    [
      "max_tokens 0 on hierarchical without a parent mode (paragraph by default)",
      sent("hierarchical", { segmentation: { max_tokens: 0 } }),
      "Process rule segmentation max_tokens is required",
    ],
  ])("refuses %s", (_label, value, message) => {
    expect(refusal(value)).toBe(message);
  });
});

describe("validateProcessRule telling the first of two problems", () => {
  it.each([
    ["an unknown mode before ill-typed rules", { mode: "bogus", rules: [] }, "Process rule mode is invalid"],
    [
      "missing pre-processing rules before a missing segmentation",
      { mode: "custom", rules: { segmentation: null } },
      "Process rule pre_processing_rules is required",
    ],
    [
      "an item without id before a missing segmentation",
      { mode: "custom", rules: { pre_processing_rules: [{ enabled: true }] } },
      "Process rule pre_processing_rules id is required",
    ],
    [
      "the first item's enabled before the second item's id",
      sent("custom", { pre_processing_rules: [{ id: "a" }, { enabled: true }] }),
      "Process rule pre_processing_rules enabled is invalid",
    ],
    [
      "an ill-typed max_tokens (the models read first) before missing pre-processing rules",
      sent("custom", { pre_processing_rules: null, segmentation: { max_tokens: "500" } }),
      "process_rule.rules.segmentation.max_tokens: must be an integer.",
    ],
    [
      "an ill-typed max_tokens before an empty id",
      sent("custom", {
        pre_processing_rules: [{ id: "", enabled: true }],
        segmentation: { max_tokens: "x" },
      }),
      "process_rule.rules.segmentation.max_tokens: must be an integer.",
    ],
    [
      "an empty separator before max_tokens 0",
      sent("custom", { segmentation: { separator: "", max_tokens: 0 } }),
      "Process rule segmentation separator is required",
    ],
    [
      "the segmentation's type before the parent mode's",
      sent("hierarchical", { segmentation: { max_tokens: 1.5 }, parent_mode: "x" }),
      "process_rule.rules.segmentation.max_tokens: must be an integer.",
    ],
    [
      "the parent mode's type before the subchunks'",
      sent("hierarchical", { parent_mode: "x", subchunk_segmentation: [] }),
      "process_rule.rules.parent_mode: must be full-doc, paragraph or null.",
    ],
  ])("answers %s", (_label, value, message) => {
    expect(refusal(value)).toBe(message);
  });
});
