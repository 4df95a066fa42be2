import { describe, expect, it } from "vitest";
import type { ChunkForm } from "../chunking/drafts.js";
import { AUTOMATIC_RULES, type ChunkingMode, type ProcessRuleRules } from "../chunking/rules.js";
import { indexingRuleProblem } from "./indexing-rule-problem.js";

// Dify's indexing failures: BaseIndexProcessor._get_splitter ("Custom segment length should be
// between 50 and {limit}."), TextSplitter.__init__ (overlap), ParentChildIndexProcessor.transform
// and _split_child_nodes ("No subchunk segmentation found in rules."); and ours for no parent mode.

const LENGTH = "Custom segment length should be between 50 and 4000.";
const SUBCHUNKS = "No subchunk segmentation found in rules.";
const PARENT_MODE = "hierarchical_model documents need a process rule with parent_mode.";
const overlap = (size: number, by: number) =>
  `Got a larger chunk overlap (${by}) than chunk size (${size}), should be smaller.`;

const sizes = (max_tokens: number, chunk_overlap = 0) => ({ separator: "\n", max_tokens, chunk_overlap });
const rules = (extra: Partial<ProcessRuleRules> = {}): ProcessRuleRules => ({
  pre_processing_rules: [],
  segmentation: sizes(500, 50),
  parent_mode: null,
  subchunk_segmentation: null,
  ...extra,
});
const problem = (mode: ChunkingMode, given: ProcessRuleRules, docForm: ChunkForm, limit?: number) =>
  indexingRuleProblem({ mode, rules: given }, { docForm, maxSegmentationLength: limit });
const paragraph = (parent: ReturnType<typeof sizes>, child: ReturnType<typeof sizes> | null) =>
  rules({ parent_mode: "paragraph", segmentation: parent, subchunk_segmentation: child });
const fullDoc = (parent: ReturnType<typeof sizes>, child: ReturnType<typeof sizes> | null) =>
  rules({ parent_mode: "full-doc", segmentation: parent, subchunk_segmentation: child });

describe("indexingRuleProblem for a text_model document", () => {
  it.each([
    [49, 0, LENGTH],
    [50, 0, undefined],
    [4000, 0, undefined],
    [4001, 0, LENGTH],
    [-5, 0, LENGTH],
    [500, 500, undefined],
    [500, 501, overlap(500, 501)],
    [10, 20, LENGTH],
  ])("answers max_tokens %d with overlap %d by %j", (maxTokens, chunkOverlap, message) => {
    expect(problem("custom", rules({ segmentation: sizes(maxTokens, chunkOverlap) }), "text_model")).toBe(
      message,
    );
  });

  it("takes the longest segment from the configuration", () => {
    const rule = rules({ segmentation: sizes(1001) });
    expect(problem("custom", rule, "text_model", 1000)).toBe(
      "Custom segment length should be between 50 and 1000.",
    );
    expect(problem("custom", rules({ segmentation: sizes(8000) }), "text_model", 8000)).toBeUndefined();
  });

  it("passes automatic, which splits at 500 with overlap 50 whatever the rule says", () => {
    expect(
      indexingRuleProblem({ mode: "automatic", rules: AUTOMATIC_RULES }, { docForm: "text_model" }),
    ).toBeUndefined();
    expect(problem("automatic", rules({ segmentation: sizes(1) }), "text_model")).toBeUndefined();
  });

  it("checks a hierarchical rule's segmentation, full-doc too, and never needs its subchunks", () => {
    expect(problem("hierarchical", paragraph(sizes(500), null), "text_model")).toBeUndefined();
    expect(problem("hierarchical", fullDoc(sizes(0), sizes(100)), "text_model")).toBe(LENGTH);
  });

  it("writes a huge overlap as Python writes the integer", () => {
    expect(problem("custom", rules({ segmentation: sizes(500, 1e21) }), "text_model")).toBe(
      "Got a larger chunk overlap (1000000000000000000000) than chunk size (500), should be smaller.",
    );
  });
});

describe("indexingRuleProblem for a hierarchical_model document", () => {
  it.each([
    ["automatic", "automatic", rules()],
    ["custom without a parent mode", "custom", rules()],
  ] as const)("refuses %s, which Dify indexes into no chunks", (_label, mode, given) => {
    expect(problem(mode, given, "hierarchical_model")).toBe(PARENT_MODE);
  });

  it("refuses AUTOMATIC_RULES, which have no parent mode", () => {
    expect(
      indexingRuleProblem({ mode: "automatic", rules: AUTOMATIC_RULES }, { docForm: "hierarchical_model" }),
    ).toBe(PARENT_MODE);
  });

  it.each([
    ["fitting parents and children", paragraph(sizes(500, 50), sizes(100, 10)), undefined],
    ["no subchunks", paragraph(sizes(500), null), SUBCHUNKS],
    ["parents too short, before missing subchunks", paragraph(sizes(49), null), LENGTH],
    ["a parent overlap over the size", paragraph(sizes(100, 101), sizes(100)), overlap(100, 101)],
    ["children of 49", paragraph(sizes(500), sizes(49)), LENGTH],
    ["children of 50", paragraph(sizes(500), sizes(50)), undefined],
    ["children of 4000", paragraph(sizes(500), sizes(4000)), undefined],
    ["children of 4001", paragraph(sizes(500), sizes(4001)), LENGTH],
    ["children overlapping by their size", paragraph(sizes(500), sizes(100, 100)), undefined],
    ["children overlapping by more", paragraph(sizes(500), sizes(100, 101)), overlap(100, 101)],
  ])("answers paragraph parents with %s", (_label, given, message) => {
    expect(problem("hierarchical", given, "hierarchical_model")).toBe(message);
  });

  it.each([
    ["a parent of 0, never split", fullDoc(sizes(0), sizes(100)), undefined],
    ["a parent of 9000 overlapping by more", fullDoc(sizes(9000, 9999), sizes(100)), undefined],
    ["no subchunks", fullDoc(sizes(0), null), SUBCHUNKS],
    ["children of 4001", fullDoc(sizes(500), sizes(4001)), LENGTH],
    ["children overlapping by more", fullDoc(sizes(500), sizes(60, 61)), overlap(60, 61)],
  ])("answers a full-doc parent with %s", (_label, given, message) => {
    expect(problem("hierarchical", given, "hierarchical_model")).toBe(message);
  });

  it("checks a custom rule that names a parent mode as Dify's parent-child processor does", () => {
    expect(problem("custom", paragraph(sizes(500), null), "hierarchical_model")).toBe(SUBCHUNKS);
    expect(problem("custom", fullDoc(sizes(0), sizes(80)), "hierarchical_model")).toBeUndefined();
  });
});
