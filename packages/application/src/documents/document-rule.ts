import {
  AUTOMATIC_RULES,
  type ProcessRule,
  type ProcessRuleResolution,
  type ValidProcessRule,
  validateProcessRule,
} from "@service-api/domain";
import type { IdGenerator } from "@service-api/ports";

/**
 * The rule a document is stored with (a new row's id, or the dataset's latest as it is) and the
 * same rule as the chunker reads it. A stored rule is read again by the request's rules; one they
 * refuse (an import's, of a shape no create stores) is not reused: the document gets a new
 * `automatic` rule, as with no rule at all.
 */
export function ruleToStore(
  resolved: Exclude<ProcessRuleResolution<ProcessRule>, { kind: "refused" } | { kind: "keep" }>,
  ids: IdGenerator,
): { stored: ProcessRule; typed: ValidProcessRule } {
  if (resolved.kind === "insert") {
    const typed = resolved.rule;
    return { stored: { id: ids.next(), mode: typed.mode, rules: { ...typed.rules } }, typed };
  }
  const stored = resolved.rule;
  const read = validateProcessRule({ mode: stored.mode, rules: stored.rules });
  if (!read.ok) return ruleToStore({ kind: "insert", rule: AUTOMATIC }, ids);
  return { stored, typed: read.rule };
}

const AUTOMATIC: ValidProcessRule = { mode: "automatic", rules: AUTOMATIC_RULES };
