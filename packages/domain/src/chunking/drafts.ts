/** A child chunk of a hierarchical parent. */
export interface ChildChunkDraft {
  /** What the child chunk stores. */
  content: string;
  /**
   * The text whose SHA-256 (hex) Dify stores as the child's `index_node_hash`: the child before its
   * leading stop went, + "None".
   */
  hashSource: string;
}

/** A segment to store, in order (positions 1…n). */
export interface ChunkDraft {
  /** What the segment stores; `word_count` is its length in code points. */
  content: string;
  /**
   * The text whose SHA-256 (hex) Dify stores as `index_node_hash`: Dify's `generate_text_hash`
   * hashes the chunk + "None", taken before leading symbols (or a leading stop) are removed.
   */
  hashSource: string;
  /** [] for text_model. */
  children: ChildChunkDraft[];
}

export type ChunkForm = "text_model" | "hierarchical_model";

/** Dify's `generate_text_hash` appends "None" before hashing. */
export const hashSourceOf = (text: string): string => `${text}None`;
