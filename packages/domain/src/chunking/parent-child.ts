// Dify's ParentChildIndexProcessor.transform: the parents and children of a hierarchical_model
// document. Unlike text_model, chunks keep their surrounding whitespace and lose no leading symbols.

import { cleanerFor } from "./clean.js";
import { type ChildChunkDraft, type ChunkDraft, hashSourceOf } from "./drafts.js";
import { isPythonBlank, pythonStrip } from "./python-text.js";
import { type ChunkingMode, type StoredRules, splitSettings } from "./rules.js";
import { type Splitter, splitterFor } from "./splitter.js";

/** "delete Splitter character": one leading "." or "。" goes, and then the rest is stripped. */
function withoutLeadingStop(chunk: string): string {
  return chunk.startsWith(".") || chunk.startsWith("。") ? pythonStrip(chunk.slice(1)) : chunk;
}

/**
 * `_split_child_nodes`. Dify fails the document without `subchunk_segmentation` ("No subchunk
 * segmentation found in rules."); the caller refuses that before, and here parents get no children.
 */
function childSplitterFor(mode: ChunkingMode, rules: StoredRules): (parent: string) => ChildChunkDraft[] {
  if (!rules.subchunk_segmentation) return () => [];
  const split = splitterFor(mode, splitSettings(rules.subchunk_segmentation));
  return (parent) => splitChildren(parent, split);
}

function splitChildren(parent: string, split: Splitter): ChildChunkDraft[] {
  const children: ChildChunkDraft[] = [];
  for (const chunk of split(parent)) {
    if (isPythonBlank(chunk)) continue;
    const content = withoutLeadingStop(chunk);
    if (content !== "") children.push({ content, hashSource: hashSourceOf(chunk) });
  }
  return children;
}

/** `paragraph`: each unit cleaned and split into parents on `segmentation`, each parent into children. */
function chunkParagraphParents(
  units: readonly string[],
  mode: ChunkingMode,
  rules: StoredRules,
): ChunkDraft[] {
  const split = splitterFor(mode, splitSettings(rules.segmentation));
  const clean = cleanerFor(rules);
  const splitChildrenOf = childSplitterFor(mode, rules);
  const drafts: ChunkDraft[] = [];
  for (const unit of units) {
    for (const chunk of split(clean(unit))) {
      if (isPythonBlank(chunk)) continue;
      const content = withoutLeadingStop(chunk);
      if (content === "") continue;
      drafts.push({
        content,
        hashSource: hashSourceOf(chunk),
        children: splitChildrenOf(content),
      });
    }
  }
  return drafts;
}

/**
 * `full-doc`: the units joined with "\n", not cleaned, as one parent with no cap on its length and
 * no check for blankness. Dify fails on no units at all (`documents[0]`); here there is no parent.
 */
function chunkFullDocument(units: readonly string[], mode: ChunkingMode, rules: StoredRules): ChunkDraft[] {
  if (units.length === 0) return [];
  const content = units.join("\n");
  return [{ content, hashSource: hashSourceOf(content), children: childSplitterFor(mode, rules)(content) }];
}

/**
 * By `parent_mode`. Without one Dify makes no segments at all (the rules of `automatic` and most
 * `custom` rules have none); the caller stores `paragraph` for a hierarchical rule without one.
 */
export function chunkParentsAndChildren(
  units: readonly string[],
  mode: ChunkingMode,
  rules: StoredRules,
): ChunkDraft[] {
  if (rules.parent_mode === "paragraph") return chunkParagraphParents(units, mode, rules);
  if (rules.parent_mode === "full-doc") return chunkFullDocument(units, mode, rules);
  return [];
}

/**
 * A parent's child chunks made anew, as Dify's `generate_child_chunks` makes them: the parent alone
 * split as a `full-doc` of one unit, by its document's rule.
 */
export function splitChildChunks(parent: string, mode: ChunkingMode, rules: StoredRules): ChildChunkDraft[] {
  return childSplitterFor(mode, rules)(parent);
}
