/**
 * How many chunk search keys each document has (migration 0013): a document's keys run from its
 * name-search key times this, so its chunks' trigram rows are one rowid range.
 */
export const CHUNK_KEYS_PER_DOCUMENT = 2 ** 31;
