import { randomBytes } from "node:crypto";
import { API_KEY_PREFIXES, type ApiKeyKind } from "@service-api/domain";
import type { TokenGenerator } from "@service-api/ports";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
/** 40 characters of 62 symbols: about 238 bits. */
const RANDOM_LENGTH = 40;

/** A new API key token, `app-…` or `ds-…`, from the system's CSPRNG without modulo bias. */
export function generateApiKeyToken(kind: ApiKeyKind): string {
  let random = "";
  while (random.length < RANDOM_LENGTH) {
    for (const byte of randomBytes(RANDOM_LENGTH)) {
      // 248 = 4 × 62: bytes at or above it would favour the first symbols.
      if (byte < 248 && random.length < RANDOM_LENGTH) random += ALPHABET[byte % 62];
    }
  }
  return API_KEY_PREFIXES[kind] + random;
}

export class RandomTokenGenerator implements TokenGenerator {
  generate(kind: ApiKeyKind): string {
    return generateApiKeyToken(kind);
  }
}
