// Dify reads a request's process_rule with pydantic models (ProcessRule, Rule, Segmentation,
// PreProcessingRule: services/entities/knowledge_entities) before any rule check. This is that
// reading of parsed JSON: field by field in the models' order, the first problem winning, defaults
// filled (`separator` "\n", `chunk_overlap` 0, nulls). Types are JSON's, strictly: "500" is no
// integer and "true" no boolean here (pydantic's lax mode would convert both).

import type { PreProcessingRule, SegmentationRule } from "../chunking/rules.js";
import { isProcessRuleMode, PARENT_MODES, type ParentMode } from "./constants.js";
import { PROCESS_RULE_MESSAGES as MESSAGES } from "./messages.js";

/** Pydantic's `Rule` once read: what was not sent is null. */
export interface SentRules {
  pre_processing_rules: PreProcessingRule[] | null;
  segmentation: SegmentationRule | null;
  parent_mode: ParentMode | null;
  subchunk_segmentation: SegmentationRule | null;
}

/** `ProcessRule` once read. Under `automatic` the rules are not read at all (knowledge-content §8). */
export type SentProcessRule =
  | { mode: "automatic" }
  | { mode: "custom" | "hierarchical"; rules: SentRules | null };

export type ProcessRuleReading = { ok: true; rule: SentProcessRule } | { ok: false; message: string };

class ShapeProblem extends Error {}

const ROOT = "process_rule";

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const isAbsent = (value: unknown): value is null | undefined => value === undefined || value === null;
const isInteger = (value: unknown): value is number => typeof value === "number" && Number.isInteger(value);

function refuse(message: string): never {
  throw new ShapeProblem(message);
}

function object(value: unknown, path: string): Record<string, unknown> {
  return isObject(value) ? value : refuse(`${path}: must be an object.`);
}

/** An item needs an `id` (Dify's text when none is given) and a boolean `enabled` (Dify's text). */
function preProcessingRules(value: unknown, path: string): PreProcessingRule[] | null {
  if (isAbsent(value)) return null;
  if (!Array.isArray(value)) refuse(`${path}: must be a list.`);
  return value.map((item: unknown, index) => {
    const { id, enabled } = object(item, `${path}.${index}`);
    if (isAbsent(id)) refuse(MESSAGES.preProcessingRuleIdRequired);
    if (typeof id !== "string") refuse(`${path}.${index}.id: must be a string.`);
    if (typeof enabled !== "boolean") refuse(MESSAGES.preProcessingRuleEnabledInvalid);
    return { id, enabled };
  });
}

/** `max_tokens` has no default; `noMaxTokens` is what its absence is told. */
function segmentation(value: unknown, path: string, noMaxTokens: string): SegmentationRule | null {
  if (isAbsent(value)) return null;
  const { separator = "\n", max_tokens, chunk_overlap = 0 } = object(value, path);
  if (typeof separator !== "string") refuse(`${path}.separator: must be a string.`);
  if (isAbsent(max_tokens)) refuse(noMaxTokens);
  if (!isInteger(max_tokens)) refuse(`${path}.max_tokens: must be an integer.`);
  if (!isInteger(chunk_overlap)) refuse(`${path}.chunk_overlap: must be an integer.`);
  return { separator, max_tokens, chunk_overlap };
}

function parentMode(value: unknown, path: string): ParentMode | null {
  if (isAbsent(value)) return null;
  return (PARENT_MODES as readonly unknown[]).includes(value)
    ? (value as ParentMode)
    : refuse(`${path}: must be full-doc, paragraph or null.`);
}

function rules(value: unknown): SentRules | null {
  if (isAbsent(value)) return null;
  const path = `${ROOT}.rules`;
  const sent = object(value, path);
  const subchunkPath = `${path}.subchunk_segmentation`;
  return {
    pre_processing_rules: preProcessingRules(sent.pre_processing_rules, `${path}.pre_processing_rules`),
    segmentation: segmentation(sent.segmentation, `${path}.segmentation`, MESSAGES.maxTokensRequired),
    parent_mode: parentMode(sent.parent_mode, `${path}.parent_mode`),
    subchunk_segmentation: segmentation(
      sent.subchunk_segmentation,
      subchunkPath,
      `${subchunkPath}.max_tokens: must be an integer.`,
    ),
  };
}

function processRule(value: unknown): SentProcessRule {
  const { mode, rules: sentRules } = object(value, ROOT);
  if (isAbsent(mode) || mode === "") refuse(MESSAGES.modeRequired);
  if (!isProcessRuleMode(mode)) refuse(MESSAGES.modeInvalid);
  return mode === "automatic" ? { mode } : { mode, rules: rules(sentRules) };
}

/**
 * A request's `process_rule` (not null: null and absence mean no rule) read as Dify's models read
 * it, or the first problem: a missing or unknown mode, an item without id or with a non-boolean
 * `enabled`, and a missing `max_tokens` in Dify's words; any other wrong type as `<path>: <reason>`.
 */
export function readProcessRule(value: unknown): ProcessRuleReading {
  try {
    return { ok: true, rule: processRule(value) };
  } catch (error) {
    if (error instanceof ShapeProblem) return { ok: false, message: error.message };
    throw error;
  }
}
