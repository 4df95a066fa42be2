// Dify's ParagraphIndexProcessor.transform: the chunks of a text_model document.

import { cleanerFor } from "./clean.js";
import { type ChunkDraft, hashSourceOf } from "./drafts.js";
import { removeLeadingSymbols } from "./leading-symbols.js";
import { isPythonBlank, pythonStrip } from "./python-text.js";
import { type ChunkingMode, type StoredRules, splitSettings } from "./rules.js";
import { splitterFor } from "./splitter.js";

/**
 * Each unit cleaned and split on its own (chunks never cross units); blank chunks dropped; the hash
 * taken; then leading symbols removed and the chunk stripped, dropped if nothing is left.
 */
export function chunkParagraphs(
  units: readonly string[],
  mode: ChunkingMode,
  rules: StoredRules,
): ChunkDraft[] {
  const split = splitterFor(mode, splitSettings(rules.segmentation));
  const clean = cleanerFor(rules);
  const drafts: ChunkDraft[] = [];
  for (const unit of units) {
    for (const chunk of split(clean(unit))) {
      if (isPythonBlank(chunk)) continue;
      const content = pythonStrip(removeLeadingSymbols(chunk));
      if (content !== "") drafts.push({ content, hashSource: hashSourceOf(chunk), children: [] });
    }
  }
  return drafts;
}
