// A document's process rule, as Dify's create-by-text / create-by-file (and the updates) take it.
// A use case runs, in Dify's order:
// 1. `validateProcessRule` on the body's `process_rule` (when it is neither absent nor null);
// 2. `resolveProcessRule`: the rule the document uses, or "process_rule is required." (by file)
//    and "No process rule found."; then its own synchronous checks (`doc_form` against the dataset);
// 3. `indexingRuleProblem` on the rule it uses: what Dify would fail on only while indexing.
// A stored rule (the dataset's latest) can be read back into typed rules with `validateProcessRule`.

export {
  DEFAULT_MAX_SEGMENTATION_LENGTH,
  defaultRules,
  isProcessRuleMode,
  MIN_SEGMENTATION_LENGTH,
  PARENT_MODES,
  type ParentMode,
  PRE_PROCESSING_RULE_IDS,
  PROCESS_RULE_MODES,
} from "./constants.js";
export { type IndexingRuleContext, indexingRuleProblem } from "./indexing-rule-problem.js";
export { overlapRefused, PROCESS_RULE_MESSAGES, segmentLengthRefused } from "./messages.js";
export {
  type ProcessRuleReading,
  readProcessRule,
  type SentProcessRule,
  type SentRules,
} from "./read-process-rule.js";
export {
  type ProcessRuleRequest,
  type ProcessRuleResolution,
  type RequestedProcessRule,
  type RuleRequestKind,
  resolveProcessRule,
} from "./resolve-process-rule.js";
export {
  type ProcessRuleCheck,
  type ValidProcessRule,
  validateProcessRule,
} from "./validate-process-rule.js";
