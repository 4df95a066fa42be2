import type { Retrieval, RetrievedRecord } from "@service-api/application";
import { BUILT_IN_FIELD_ID, builtInDateText, type MetadataEntry } from "@service-api/domain";
import type { z } from "zod";
import type { retrieval } from "./schemas.js";

/**
 * Metadata as Dify's raw `doc_metadata`: `{name: value}`, numbers and times as numbers, but the
 * built-in dates as Dify writes them, UTC `YYYY-MM-DD HH:MM:SS`.
 */
function rawMetadata(entries: readonly MetadataEntry[]): Record<string, unknown> | null {
  if (entries.length === 0) return null;
  const values: Record<string, unknown> = {};
  for (const { id, name, type, value } of entries) {
    const number = value === null || type === "string" ? Number.NaN : Number(value);
    if (id === BUILT_IN_FIELD_ID && type === "time" && Number.isFinite(number))
      values[name] = builtInDateText(number);
    else values[name] = Number.isFinite(number) ? number : value;
  }
  return values;
}

function presentRecord({ segment: s, document, metadata, score, children }: RetrievedRecord) {
  return {
    segment: {
      id: s.id,
      position: s.position,
      document_id: s.documentId,
      content: s.content,
      sign_content: s.content,
      answer: s.answer,
      word_count: s.wordCount,
      tokens: s.tokens,
      keywords: s.keywords,
      index_node_id: s.indexNodeId,
      index_node_hash: s.indexNodeHash,
      hit_count: s.hitCount,
      enabled: s.enabled,
      disabled_at: s.disabledAt,
      disabled_by: s.disabledBy,
      status: s.status,
      created_by: s.createdBy,
      created_at: s.createdAt,
      indexing_at: s.indexingAt,
      completed_at: s.completedAt,
      error: s.error,
      stopped_at: s.stoppedAt,
      document: {
        id: document.id,
        data_source_type: document.dataSourceType,
        name: document.name,
        doc_type: document.docType,
        doc_metadata: rawMetadata(metadata),
      },
    },
    child_chunks: children.map(({ child, score: childScore }) => ({
      id: child.id,
      content: child.content,
      position: child.position,
      score: childScore,
    })),
    score,
    tsne_position: null,
    files: [],
    summary: null,
  };
}

export const presentRetrieval = ({ query, records }: Retrieval): z.output<typeof retrieval> => ({
  query: { content: query },
  records: records.map(presentRecord),
});
