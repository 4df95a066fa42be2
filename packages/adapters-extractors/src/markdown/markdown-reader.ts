import type { ExtractionLimits } from "../limits.js";
import { decodeText } from "../text/decode-text.js";
import { translateNewlines } from "../text/python-text.js";
import type { TextBudget } from "../text-budget.js";
import { markdownSections } from "./markdown-sections.js";

/** One unit per header section (Dify's `MarkdownExtractor`; see `markdownSections`). */
export function readMarkdown(bytes: Uint8Array, _limits: ExtractionLimits, budget: TextBudget): string[] {
  const text = budget.spend(translateNewlines(decodeText(bytes, { keepUtf8Bom: true })));
  // Sections only drop text (tags, `#`s) and add a few characters each: the whole text is the budget.
  return markdownSections(text);
}
