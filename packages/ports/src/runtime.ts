import type { ApiKeyKind } from "@service-api/domain";

/** The current time. */
export interface Clock {
  /** Unix time in whole seconds. */
  nowSeconds(): number;
  /** Unix time in milliseconds: for leases and delays. */
  nowMilliseconds(): number;
}

/** Identifiers for new records. */
export interface IdGenerator {
  /** A new, unique, lowercase UUID string. */
  next(): string;
  /**
   * A lowercase UUID that is always the same for the same parts and (practically) never the same
   * for others: how records without an id keep one across repeated imports.
   */
  derive(...parts: string[]): string;
}

/** New API key tokens. */
export interface TokenGenerator {
  /** A new secret token with the kind's prefix (`app-…`, `ds-…`), from a CSPRNG. */
  generate(kind: ApiKeyKind): string;
}

/** One-way hashing of API key tokens. */
export interface TokenHasher {
  /** The stored form of a token: deterministic, so a token is found by its hash. */
  hash(token: string): string;
  /** Whether `token` hashes to `tokenHash`, compared in constant time. */
  matches(token: string, tokenHash: string): boolean;
}

/** Digests of text: how a chunk's `index_node_hash` is made (Dify's `generate_text_hash`). */
export interface TextHasher {
  /** SHA-256 of the text's UTF-8, hex. */
  sha256(text: string): string;
}
