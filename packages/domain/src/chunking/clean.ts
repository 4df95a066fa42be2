// Dify's CleanProcessor.clean (core/rag/cleaner/clean_processor.py), applied to each extracted
// document before it is split.

import { removeEmails, removeUrls } from "./remove-urls-emails.js";
import type { PreProcessingRule } from "./rules.js";

// The UTF-8 bytes of U+FFFE (EF BF BE) sit in Dify's class as the characters ï, ¿ and ¾: those go
// too (`naïve` → `nave`). Dify main 76391b03 still does this; the spec asks for it.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these control characters are what it deletes.
const INVALID_CHARACTERS = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F\xEF\xBF\xBE\uFFFE]/g;
const THREE_OR_MORE_NEWLINES = /\n{3,}/g;
// Single tabs stay, and "\n" is not in the class.
const RUN_OF_SPACES = /[\t\f\r \u00a0\u1680\u180e\u2000-\u200a\u202f\u205f\u3000]{2,}/g;

type Cleaning = (text: string) => string;

const CLEANINGS: Readonly<Record<string, Cleaning>> = {
  remove_extra_spaces: (text) => text.replace(THREE_OR_MORE_NEWLINES, "\n\n").replace(RUN_OF_SPACES, " "),
  remove_urls_emails: (text) => removeUrls(removeEmails(text)),
};

/**
 * The rules that apply, in order. Dify collapses repeated ids when it validates a rule (a dict: the
 * last value wins, at the first one's place); `remove_stopwords` and unknown ids do nothing.
 */
function enabledCleanings(rules: readonly PreProcessingRule[]): Cleaning[] {
  const enabled = new Map<string, boolean>();
  for (const rule of rules) enabled.set(rule.id, rule.enabled);
  const cleanings: Cleaning[] = [];
  for (const [id, isEnabled] of enabled) {
    const cleaning = Object.hasOwn(CLEANINGS, id) ? CLEANINGS[id] : undefined;
    if (isEnabled === true && cleaning) cleanings.push(cleaning);
  }
  return cleanings;
}

type CleaningRules = { readonly pre_processing_rules?: readonly PreProcessingRule[] | null };

/** `cleanText` with the rules read once, for the many units (rows, pages) of one document. */
export function cleanerFor(rules: CleaningRules): (text: string) => string {
  const cleanings = enabledCleanings(rules.pre_processing_rules ?? []);
  return (text) => {
    let cleaned = text.replaceAll("<|", "<").replaceAll("|>", ">").replace(INVALID_CHARACTERS, "");
    for (const cleaning of cleanings) cleaned = cleaning(cleaned);
    return cleaned;
  };
}

/**
 * `CleanProcessor.clean`: always `<|` → `<`, `|>` → `>` and the invalid characters deleted, then the
 * enabled pre-processing rules in list order.
 */
export function cleanText(text: string, rules: CleaningRules): string {
  return cleanerFor(rules)(text);
}
