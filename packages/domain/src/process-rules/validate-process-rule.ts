// DocumentService.process_rule_args_validate (services/dataset_service.py), after the models have
// read the rule (read-process-rule.ts): what create-by-text, create-by-file and the updates check
// before they answer. What Dify only fails on while indexing is indexing-rule-problem.ts.

import {
  AUTOMATIC_RULES,
  type AutomaticRules,
  type PreProcessingRule,
  type ProcessRuleRules,
} from "../chunking/rules.js";
import { PROCESS_RULE_MESSAGES as MESSAGES } from "./messages.js";
import { readProcessRule, type SentRules } from "./read-process-rule.js";

/**
 * A process rule as it is stored: `automatic` with `AUTOMATIC_RULES`, or the pydantic JSON of the
 * `Rule` sent (all four keys, nulls included; keys the models do not know dropped).
 */
export type ValidProcessRule =
  | { mode: "automatic"; rules: AutomaticRules }
  | { mode: "custom" | "hierarchical"; rules: ProcessRuleRules };

export type ProcessRuleCheck = { ok: true; rule: ValidProcessRule } | { ok: false; message: string };

const refused = (message: string): ProcessRuleCheck => ({ ok: false, message });

function checkRules(mode: "custom" | "hierarchical", rules: SentRules | null): ProcessRuleCheck {
  if (!rules) return refused(MESSAGES.rulesRequired);
  if (!rules.pre_processing_rules) return refused(MESSAGES.preProcessingRulesRequired);
  // A dict keyed by id: a repeated id keeps its first place and takes its last value.
  const byId = new Map<string, PreProcessingRule>();
  for (const rule of rules.pre_processing_rules) {
    if (rule.id === "") return refused(MESSAGES.preProcessingRuleIdRequired);
    byId.set(rule.id, rule);
  }
  // PR #34635: a hierarchical rule without a parent mode splits paragraphs.
  const parentMode = mode === "hierarchical" ? (rules.parent_mode ?? "paragraph") : rules.parent_mode;
  const { segmentation } = rules;
  if (!segmentation) return refused(MESSAGES.segmentationRequired);
  if (segmentation.separator === "") return refused(MESSAGES.separatorRequired);
  // A full-doc parent is never split, so its size may be 0 (it must still be an integer).
  const fullDocument = mode === "hierarchical" && parentMode === "full-doc";
  if (!fullDocument && segmentation.max_tokens === 0) return refused(MESSAGES.maxTokensRequired);
  return {
    ok: true,
    rule: {
      mode,
      rules: {
        pre_processing_rules: [...byId.values()],
        segmentation,
        parent_mode: parentMode,
        subchunk_segmentation: rules.subchunk_segmentation,
      },
    },
  };
}

/**
 * A request's `process_rule` as parsed from JSON (not null: null and absence mean no rule, see
 * `resolveProcessRule`), checked in Dify's order: the models' reading first (`readProcessRule`),
 * then rules, pre-processing rules, their ids, segmentation, separator, `max_tokens` (not 0, but
 * for a hierarchical full-doc rule). Gives the rule as stored, or Dify's message for the first
 * problem. `automatic` ignores whatever `rules` come with it and stores `AUTOMATIC_RULES`.
 */
export function validateProcessRule(value: unknown): ProcessRuleCheck {
  const reading = readProcessRule(value);
  if (!reading.ok) return reading;
  const sent = reading.rule;
  return sent.mode === "automatic"
    ? { ok: true, rule: { mode: "automatic", rules: AUTOMATIC_RULES } }
    : checkRules(sent.mode, sent.rules);
}
