// Which process rule a document gets (reference-knowledge §1.3 step 6): DocumentAddByTextApi and
// DocumentAddByFileApi pass the dataset's latest rule when the body names none, and
// save_document_with_dataset_id or update_document_with_dataset_id settle the rest.

import { AUTOMATIC_RULES } from "../chunking/rules.js";
import { PROCESS_RULE_MESSAGES as MESSAGES } from "./messages.js";
import type { ValidProcessRule } from "./validate-process-rule.js";

/**
 * A create by text or by file, or an update: update-by-text, update-by-file, PATCH, and a create
 * whose body names an `original_document_id` (Dify turns it into an update of that document).
 */
export type RuleRequestKind = "create-by-text" | "create-by-file" | "update";

/** A validated rule; `custom`/`hierarchical` without rules only as Dify's code allows for it. */
export type RequestedProcessRule = ValidProcessRule | { mode: "custom" | "hierarchical"; rules?: null };

export interface ProcessRuleRequest<Stored> {
  kind: RuleRequestKind;
  /**
   * The body's `process_rule`, validated: undefined when the body has no such key, null when it
   * says null. create-by-text drops nulls before it looks (`model_dump(exclude_none=True)`), so
   * there null is absence; in a file's `data` a null is a key that is there.
   */
  requested: RequestedProcessRule | null | undefined;
  /** The dataset's newest stored rule, if it has one. */
  latest: Stored | undefined;
}

export type ProcessRuleResolution<Stored> =
  /** The dataset's latest rule, as it is stored: the document points to it. */
  | { kind: "reuse"; rule: Stored }
  /** A new rule row to insert, which the document points to. */
  | { kind: "insert"; rule: ValidProcessRule }
  /** An update without a rule: the document keeps the one it has. */
  | { kind: "keep" }
  | { kind: "refused"; message: string };

const AUTOMATIC: ValidProcessRule = { mode: "automatic", rules: AUTOMATIC_RULES };

/** A rule the body gives: automatic, or custom/hierarchical with rules, is a new row. */
function fromRequested<Stored>(
  requested: RequestedProcessRule,
  fallback: Stored | undefined,
): ProcessRuleResolution<Stored> {
  if (requested.mode === "automatic") return { kind: "insert", rule: AUTOMATIC };
  if (requested.rules) return { kind: "insert", rule: { mode: requested.mode, rules: requested.rules } };
  // Unreachable after validateProcessRule, which wants rules. A create falls back to the latest
  // rule as Dify does; an update (where Dify would store a rule without rules) is refused.
  return fallback
    ? { kind: "reuse", rule: fallback }
    : { kind: "refused", message: MESSAGES.noProcessRuleFound };
}

/**
 * The rule a document uses. A create with no `process_rule` key reuses the dataset's latest rule.
 * With neither, create-by-text inserts a new `automatic` rule and create-by-file refuses
 * ("process_rule is required."), as it does when its `data` says `process_rule: null`, dataset rule
 * or not. An update never reads the dataset's rule: a rule given is a new row, none keeps the
 * document's.
 */
export function resolveProcessRule<Stored>(
  request: ProcessRuleRequest<Stored>,
): ProcessRuleResolution<Stored> {
  const { kind, requested, latest } = request;
  if (kind === "update") return requested ? fromRequested<Stored>(requested, undefined) : { kind: "keep" };
  const keySent = kind === "create-by-text" ? requested != null : requested !== undefined;
  const datasetRule = keySent ? undefined : latest;
  if (kind === "create-by-file" && !datasetRule && !requested)
    return { kind: "refused", message: MESSAGES.processRuleRequired };
  if (datasetRule) return { kind: "reuse", rule: datasetRule };
  if (requested) return fromRequested(requested, latest);
  // Dify reuses the latest rule here too; with no key sent it was reused above.
  return { kind: "insert", rule: AUTOMATIC };
}
