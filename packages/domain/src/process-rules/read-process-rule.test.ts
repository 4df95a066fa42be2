import { describe, expect, it } from "vitest";
import { validateProcessRule } from "./validate-process-rule.js";

// Dify's pydantic models (services/entities/knowledge_entities) read the rule before
// process_rule_args_validate checks it: these are the problems of that reading.

const segmentation = { separator: "\n\n", max_tokens: 500, chunk_overlap: 50 };
const custom = (rules: Record<string, unknown>) => ({
  mode: "custom",
  rules: { pre_processing_rules: [], segmentation, ...rules },
});
const withSegmentation = (fields: Record<string, unknown>) =>
  custom({ segmentation: { ...segmentation, ...fields } });
const withItem = (item: unknown) => custom({ pre_processing_rules: [item] });
const refusal = (value: unknown) => {
  const check = validateProcessRule(value);
  return check.ok ? undefined : check.message;
};

describe("validateProcessRule reading the rule as Dify's models do", () => {
  it.each([
    ["a process rule that is text", "custom", "process_rule: must be an object."],
    ["a process rule that is a list", [], "process_rule: must be an object."],
    ["no mode", {}, "Process rule mode is required"],
    ["a null mode", { mode: null }, "Process rule mode is required"],
    ["an empty mode", { mode: "" }, "Process rule mode is required"],
    ["a mode of another case", { mode: "Custom" }, "Process rule mode is invalid"],
    ["a mode that is a number", { mode: 1 }, "Process rule mode is invalid"],
    ["rules that are a list", { mode: "custom", rules: [] }, "process_rule.rules: must be an object."],
    [
      "pre-processing rules that are no list",
      custom({ pre_processing_rules: {} }),
      "process_rule.rules.pre_processing_rules: must be a list.",
    ],
    [
      "a pre-processing rule that is no object",
      withItem("remove_urls_emails"),
      "process_rule.rules.pre_processing_rules.0: must be an object.",
    ],
    [
      "a pre-processing rule without id",
      withItem({ enabled: true }),
      "Process rule pre_processing_rules id is required",
    ],
    [
      "a pre-processing rule with a null id",
      withItem({ id: null, enabled: true }),
      "Process rule pre_processing_rules id is required",
    ],
    [
      "a pre-processing rule whose id is a number",
      withItem({ id: 5, enabled: true }),
      "process_rule.rules.pre_processing_rules.0.id: must be a string.",
    ],
    [
      "a pre-processing rule without enabled",
      withItem({ id: "remove_extra_spaces" }),
      "Process rule pre_processing_rules enabled is invalid",
    ],
    [
      "enabled given as text",
      withItem({ id: "remove_extra_spaces", enabled: "true" }),
      "Process rule pre_processing_rules enabled is invalid",
    ],
    [
      "enabled given as 1",
      withItem({ id: "remove_extra_spaces", enabled: 1 }),
      "Process rule pre_processing_rules enabled is invalid",
    ],
    [
      "a segmentation that is text",
      custom({ segmentation: "\n" }),
      "process_rule.rules.segmentation: must be an object.",
    ],
    [
      "a separator that is a number",
      withSegmentation({ separator: 5 }),
      "process_rule.rules.segmentation.separator: must be a string.",
    ],
    [
      "a null separator",
      withSegmentation({ separator: null }),
      "process_rule.rules.segmentation.separator: must be a string.",
    ],
    [
      "no max_tokens",
      custom({ segmentation: { separator: "\n" } }),
      "Process rule segmentation max_tokens is required",
    ],
    [
      "a null max_tokens",
      withSegmentation({ max_tokens: null }),
      "Process rule segmentation max_tokens is required",
    ],
    [
      "max_tokens as text",
      withSegmentation({ max_tokens: "500" }),
      "process_rule.rules.segmentation.max_tokens: must be an integer.",
    ],
    [
      "a fractional max_tokens",
      withSegmentation({ max_tokens: 500.5 }),
      "process_rule.rules.segmentation.max_tokens: must be an integer.",
    ],
    [
      "max_tokens as true",
      withSegmentation({ max_tokens: true }),
      "process_rule.rules.segmentation.max_tokens: must be an integer.",
    ],
    [
      "a null chunk_overlap",
      withSegmentation({ chunk_overlap: null }),
      "process_rule.rules.segmentation.chunk_overlap: must be an integer.",
    ],
    [
      "a fractional chunk_overlap",
      withSegmentation({ chunk_overlap: 1.5 }),
      "process_rule.rules.segmentation.chunk_overlap: must be an integer.",
    ],
    [
      "an empty parent mode",
      custom({ parent_mode: "" }),
      "process_rule.rules.parent_mode: must be full-doc, paragraph or null.",
    ],
    [
      "an unknown parent mode",
      custom({ parent_mode: "full_doc" }),
      "process_rule.rules.parent_mode: must be full-doc, paragraph or null.",
    ],
    [
      "a subchunk segmentation that is text",
      custom({ subchunk_segmentation: "\n" }),
      "process_rule.rules.subchunk_segmentation: must be an object.",
    ],
    [
      "a subchunk segmentation without max_tokens",
      custom({ subchunk_segmentation: { separator: "\n" } }),
      "process_rule.rules.subchunk_segmentation.max_tokens: must be an integer.",
    ],
    [
      "a subchunk overlap as text",
      custom({ subchunk_segmentation: { max_tokens: 100, chunk_overlap: "10" } }),
      "process_rule.rules.subchunk_segmentation.chunk_overlap: must be an integer.",
    ],
  ])("refuses %s", (_label, value, message) => {
    expect(refusal(value)).toBe(message);
  });
});
