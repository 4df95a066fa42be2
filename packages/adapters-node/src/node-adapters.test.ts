import {
  describeClockContract,
  describeIdGeneratorContract,
  describeTokenGeneratorContract,
  describeTokenHasherContract,
} from "@service-api/ports/testing";
import { describe, expect, it } from "vitest";
import { generateApiKeyToken, RandomTokenGenerator } from "./api-key-token.js";
import { RandomUuidGenerator } from "./random-uuid-generator.js";
import { Sha256TokenHasher } from "./sha256-token-hasher.js";
import { SystemClock } from "./system-clock.js";

describeClockContract(() => new SystemClock());
describeIdGeneratorContract(() => new RandomUuidGenerator());
describeTokenHasherContract(() => new Sha256TokenHasher());
describeTokenGeneratorContract(() => new RandomTokenGenerator());

describe("RandomUuidGenerator.derive", () => {
  it("makes version 5 UUIDs with the RFC variant", () => {
    expect(new RandomUuidGenerator().derive("a", "b")).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it("keeps the parts apart", () => {
    const ids = new RandomUuidGenerator();
    expect(ids.derive("ab", "c")).not.toBe(ids.derive("a", "bc"));
  });
});

describe("Sha256TokenHasher", () => {
  const hasher = new Sha256TokenHasher();

  it("hashes deterministically to 64 hex characters, never echoing the token", () => {
    const hash = hasher.hash("app-secret");
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).toBe(hasher.hash("app-secret"));
    expect(hash).not.toContain("secret");
    expect(hasher.hash("app-secreT")).not.toBe(hash);
  });

  it("matches a token against its hash only", () => {
    const hash = hasher.hash("ds-one");
    expect(hasher.matches("ds-one", hash)).toBe(true);
    expect(hasher.matches("ds-two", hash)).toBe(false);
    expect(hasher.matches("ds-one", "short")).toBe(false);
  });
});

describe("generateApiKeyToken", () => {
  it("makes keys with Dify's prefixes and 40 random alphanumerics", () => {
    expect(generateApiKeyToken("app")).toMatch(/^app-[A-Za-z0-9]{40}$/);
    expect(generateApiKeyToken("dataset")).toMatch(/^ds-[A-Za-z0-9]{40}$/);
  });

  it("never repeats a key", () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => generateApiKeyToken("app")));
    expect(tokens.size).toBe(1000);
  });
});
