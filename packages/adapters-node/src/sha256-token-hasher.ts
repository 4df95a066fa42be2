import { hash, timingSafeEqual } from "node:crypto";
import type { TokenHasher } from "@service-api/ports";

/**
 * SHA-256 of the token, hex. Keys carry at least 143 bits of randomness (Dify's 24 characters;
 * ours 40), so a fast hash is enough: there is nothing to brute-force, and lookups stay cheap.
 */
export class Sha256TokenHasher implements TokenHasher {
  hash(token: string): string {
    // The one-shot hash: a third of `createHash`'s cost, which builds a stream-like object per call.
    return hash("sha256", token, "hex");
  }

  matches(token: string, tokenHash: string): boolean {
    const actual = Buffer.from(this.hash(token), "hex");
    const expected = Buffer.from(tokenHash, "hex");
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }
}
