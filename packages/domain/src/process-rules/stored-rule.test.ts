import { describe, expect, it } from "vitest";
import { AUTOMATIC_RULES } from "../chunking/rules.js";
import { validateProcessRule } from "./validate-process-rule.js";

// The rule as Dify stores it: AUTOMATIC_RULES for automatic, else `Rule.model_dump_json()` after
// process_rule_args_validate collapsed the pre-processing rules and filled the parent mode.

const stored = (value: unknown) => {
  const check = validateProcessRule(value);
  if (!check.ok) throw new Error(check.message);
  return check.rule;
};
const segmentation = { separator: "\n\n", max_tokens: 500, chunk_overlap: 50 };

describe("validateProcessRule giving the rule as stored", () => {
  it.each([
    ["no rules", {}],
    [
      "rules Dify would refuse on custom",
      { rules: { pre_processing_rules: null, segmentation: { max_tokens: 0 } } },
    ],
    ["rules of the wrong types", { rules: { segmentation: "x", pre_processing_rules: 3 } }],
    ["rules that are text", { rules: "custom" }],
  ])("stores AUTOMATIC_RULES for automatic with %s", (_label, rest) => {
    expect(stored({ mode: "automatic", ...rest })).toEqual({ mode: "automatic", rules: AUTOMATIC_RULES });
  });

  it("fills the separator, the overlap and the two nulls Dify stores", () => {
    const rule = stored({
      mode: "custom",
      rules: { pre_processing_rules: [], segmentation: { max_tokens: 300 } },
    });
    expect(JSON.stringify(rule)).toBe(
      JSON.stringify({
        mode: "custom",
        rules: {
          pre_processing_rules: [],
          segmentation: { separator: "\n", max_tokens: 300, chunk_overlap: 0 },
          parent_mode: null,
          subchunk_segmentation: null,
        },
      }),
    );
  });

  it("collapses repeated pre-processing rules: the last value wins, at the first one's place", () => {
    const rule = stored({
      mode: "custom",
      rules: {
        pre_processing_rules: [
          { id: "remove_urls_emails", enabled: true },
          { id: "remove_extra_spaces", enabled: false },
          { id: "remove_urls_emails", enabled: false, note: "dropped" },
        ],
        segmentation,
      },
    });
    expect(rule.rules.pre_processing_rules).toEqual([
      { id: "remove_urls_emails", enabled: false },
      { id: "remove_extra_spaces", enabled: false },
    ]);
  });

  it("keeps ids Dify does not know, and drops keys its models do not know", () => {
    const rule = stored({
      mode: "custom",
      rules: {
        pre_processing_rules: [{ id: "shout", enabled: true }],
        segmentation: { ...segmentation, x: 1 },
        y: 2,
      },
    });
    expect(rule.rules).toEqual({
      pre_processing_rules: [{ id: "shout", enabled: true }],
      segmentation,
      parent_mode: null,
      subchunk_segmentation: null,
    });
  });

  it.each([
    ["no parent mode", {}, "paragraph"],
    ["a null parent mode", { parent_mode: null }, "paragraph"],
    ["full-doc", { parent_mode: "full-doc" }, "full-doc"],
  ])("gives a hierarchical rule with %s the parent mode %s (PR #34635)", (_label, rest, parentMode) => {
    const rule = stored({ mode: "hierarchical", rules: { pre_processing_rules: [], segmentation, ...rest } });
    expect(rule.rules.parent_mode).toBe(parentMode);
  });

  it("keeps a custom rule's parent mode as sent, and fills none", () => {
    const base = { pre_processing_rules: [], segmentation };
    expect(stored({ mode: "custom", rules: base }).rules.parent_mode).toBeNull();
    expect(stored({ mode: "custom", rules: { ...base, parent_mode: "paragraph" } }).rules.parent_mode).toBe(
      "paragraph",
    );
  });

  it("accepts max_tokens 0 on a hierarchical full-doc parent, which is never split", () => {
    const rule = stored({
      mode: "hierarchical",
      rules: { pre_processing_rules: [], segmentation: { max_tokens: 0 }, parent_mode: "full-doc" },
    });
    expect(rule.rules.segmentation).toEqual({ separator: "\n", max_tokens: 0, chunk_overlap: 0 });
  });

  it("fills the subchunks' defaults and leaves their separator and sizes to indexing", () => {
    const rule = stored({
      mode: "hierarchical",
      rules: {
        pre_processing_rules: [],
        segmentation: { max_tokens: -5 },
        subchunk_segmentation: { separator: "", max_tokens: 0 },
      },
    });
    expect(rule.rules.segmentation.max_tokens).toBe(-5);
    expect(rule.rules.subchunk_segmentation).toEqual({ separator: "", max_tokens: 0, chunk_overlap: 0 });
  });

  it.each([
    ["automatic", { mode: "automatic" }],
    ["custom", { mode: "custom", rules: { pre_processing_rules: [], segmentation: { max_tokens: 300 } } }],
    [
      "hierarchical",
      {
        mode: "hierarchical",
        rules: { pre_processing_rules: [], segmentation, subchunk_segmentation: { max_tokens: 100 } },
      },
    ],
  ])("reads a stored %s rule back as it was stored", (_label, value) => {
    const rule = stored(value);
    expect(stored(JSON.parse(JSON.stringify(rule)))).toEqual(rule);
  });
});
