import type { ExtractionLimits } from "../limits.js";
import type { TextBudget } from "../text-budget.js";
import { decodeText } from "./decode-text.js";
import { translateNewlines } from "./python-text.js";

/**
 * txt, vtt, properties: one unit, the whole text as written (Dify's `TextExtractor`; `vtt` and
 * `properties` have no extractor of their own, so cue timings and `\uXXXX` escapes stay as they are).
 */
export function readPlainText(bytes: Uint8Array, _limits: ExtractionLimits, budget: TextBudget): string[] {
  return [budget.spend(translateNewlines(decodeText(bytes, { keepUtf8Bom: true })))];
}
