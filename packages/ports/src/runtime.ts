/** The current time. */
export interface Clock {
  /** Unix time in whole seconds. */
  nowSeconds(): number;
}

/** Identifiers for new records. */
export interface IdGenerator {
  /** A new, unique, lowercase UUID string. */
  next(): string;
}

/** One-way hashing of API key tokens. */
export interface TokenHasher {
  /** The stored form of a token: deterministic, so a token is found by its hash. */
  hash(token: string): string;
  /** Whether `token` hashes to `tokenHash`, compared in constant time. */
  matches(token: string, tokenHash: string): boolean;
}
