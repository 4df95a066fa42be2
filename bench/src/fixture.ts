/** What the generator builds and every benchmarked server is asked about. Ids are derived from indexes. */
export const FIELD_COUNT = 20;
export const TAG_COUNT = 10;
export const CONVERSATION_COUNT = 100;

const hex = (value: number, width: number) => value.toString(16).padStart(width, "0");
/** A valid UUID for the n-th record of a kind (kind: one hex digit). */
export const benchId = (kind: number, index: number) => `${hex(kind, 8)}-0000-4000-8000-${hex(index, 12)}`;

export const ids = {
  workspace: benchId(1, 0),
  member: benchId(2, 0),
  dataset: benchId(3, 0),
  app: benchId(4, 0),
  document: (index: number) => benchId(5, index),
  field: (index: number) => benchId(6, index),
  tag: (index: number) => benchId(7, index),
  conversation: (index: number) => benchId(8, index),
  endUser: (index: number) => benchId(9, index),
  variable: benchId(10, 0),
  file: (index: number) => benchId(11, index),
};

/** The n-th document's batch (20 digits, as Dify's): each document in a batch of its own. */
export const batchOf = (index: number) => `20260101${String(index).padStart(12, "0")}`;
/** The same, in SQL, from a document's position (index + 1). */
export const BATCH_SQL = {
  sqlite: "'20260101' || printf('%012d', position - 1)",
  postgres: "'20260101' || lpad((position - 1)::text, 12, '0')",
};

/** The two keys every benchmarked server accepts; their hashes are stored, as always. */
export const KEYS = {
  knowledge: "ds-benchmarkKnowledgeKey0000000000000000000",
  app: "app-benchmarkAppKey00000000000000000000000",
};

export const userOf = (conversation: number) => `user-${conversation}`;
