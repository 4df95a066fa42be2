// Dify's texts for a refused process rule, exactly as Dify words them (no prefix: business-rule
// messages, knowledge-content §8). Shape problems Dify's pydantic models would report are worded
// in our `<path>: <reason>` style instead (read-process-rule.ts).

export const PROCESS_RULE_MESSAGES = {
  // DocumentService.process_rule_args_validate
  modeRequired: "Process rule mode is required",
  modeInvalid: "Process rule mode is invalid",
  rulesRequired: "Process rule rules is required",
  preProcessingRulesRequired: "Process rule pre_processing_rules is required",
  preProcessingRuleIdRequired: "Process rule pre_processing_rules id is required",
  preProcessingRuleEnabledInvalid: "Process rule pre_processing_rules enabled is invalid",
  segmentationRequired: "Process rule segmentation is required",
  separatorRequired: "Process rule segmentation separator is required",
  maxTokensRequired: "Process rule segmentation max_tokens is required",
  // DocumentService.save_document_with_dataset_id
  noProcessRuleFound: "No process rule found.",
  // DocumentAddByFileApi.post
  processRuleRequired: "process_rule is required.",
  // ParentChildIndexProcessor._split_child_nodes
  subchunkSegmentationMissing: "No subchunk segmentation found in rules.",
  // Ours (knowledge-content §3.1): Dify completes such a document with no chunks at all.
  parentModeNeeded: "hierarchical_model documents need a process rule with parent_mode.",
} as const;

/** Python's `str(int)`: every digit, where JavaScript would write `1e+21`. */
function pythonInteger(value: number): string {
  return Number.isInteger(value) && !Number.isSafeInteger(value) ? BigInt(value).toString() : String(value);
}

/** `BaseIndexProcessor._get_splitter`, for a custom or hierarchical rule. */
export function segmentLengthRefused(maxSegmentationLength: number): string {
  return `Custom segment length should be between 50 and ${pythonInteger(maxSegmentationLength)}.`;
}

/** `TextSplitter.__init__`. */
export function overlapRefused(chunkOverlap: number, chunkSize: number): string {
  return `Got a larger chunk overlap (${pythonInteger(chunkOverlap)}) than chunk size (${pythonInteger(chunkSize)}), should be smaller.`;
}
