import type { ChildChunkDraft, ChunkDraft } from "../chunking/drafts.js";
import { analyze } from "./analyzer.js";

/** A chunk as indexing stores it: its content, Dify's `index_node_hash` (SHA-256, hex), its search terms. */
export interface PreparedChunk {
  content: string;
  indexNodeHash: string;
  /** `analyze(content)`. */
  terms: string[];
}

/** A segment to store, in order; its child chunks (hierarchical documents), in order. */
export interface PreparedSegment extends PreparedChunk {
  children: PreparedChunk[];
}

const prepared = (draft: ChildChunkDraft, sha256: (text: string) => string): PreparedChunk => ({
  content: draft.content,
  indexNodeHash: sha256(draft.hashSource),
  terms: analyze(draft.content),
});

/** The chunker's drafts made ready to store: each hashed (`hashSource`, not kept) and analyzed. */
export function prepareDrafts(
  drafts: readonly ChunkDraft[],
  sha256: (text: string) => string,
): PreparedSegment[] {
  return drafts.map((draft) => ({
    ...prepared(draft, sha256),
    children: draft.children.map((child) => prepared(child, sha256)),
  }));
}
