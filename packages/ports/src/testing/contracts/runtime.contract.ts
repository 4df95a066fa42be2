import { describe, expect, it } from "vitest";
import type { Clock, IdGenerator, TokenGenerator, TokenHasher } from "../../runtime.js";

export function describeClockContract(createClock: () => Clock): void {
  describe("Clock contract", () => {
    it("tells whole Unix seconds that never go back", () => {
      const clock = createClock();
      const first = clock.nowSeconds();
      const second = clock.nowSeconds();
      expect(Number.isInteger(first)).toBe(true);
      expect(first).toBeGreaterThan(1_000_000_000);
      expect(second).toBeGreaterThanOrEqual(first);
    });
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function describeIdGeneratorContract(createIds: () => IdGenerator): void {
  describe("IdGenerator contract", () => {
    it("makes lowercase UUIDs, never the same twice", () => {
      const ids = createIds();
      const made = Array.from({ length: 1000 }, () => ids.next());
      for (const id of made) expect(id).toMatch(UUID);
      expect(new Set(made).size).toBe(1000);
    });

    it("derives the same UUID from the same parts, another from other parts", () => {
      const ids = createIds();
      const derived = ids.derive("workspace", "Acme");
      expect(derived).toMatch(UUID);
      expect(createIds().derive("workspace", "Acme")).toBe(derived);
      expect(ids.derive("workspace", "acme")).not.toBe(derived);
      expect(ids.derive("workspace", "Acme", "x")).not.toBe(derived);
      const many = Array.from({ length: 1000 }, (_, index) => ids.derive("document", String(index)));
      expect(new Set(many).size).toBe(1000);
    });
  });
}

export function describeTokenGeneratorContract(createGenerator: () => TokenGenerator): void {
  describe("TokenGenerator contract", () => {
    it("makes tokens with the kind's prefix and at least 32 more characters, never the same twice", () => {
      const generator = createGenerator();
      const tokens = Array.from({ length: 200 }, (_, index) =>
        generator.generate(index % 2 ? "app" : "dataset"),
      );
      tokens.forEach((token, index) => {
        expect(token).toMatch(index % 2 ? /^app-[A-Za-z0-9]{32,}$/ : /^ds-[A-Za-z0-9]{32,}$/);
      });
      expect(new Set(tokens).size).toBe(tokens.length);
    });
  });
}

export function describeTokenHasherContract(createHasher: () => TokenHasher): void {
  describe("TokenHasher contract", () => {
    it("hashes the same token to the same hash, and other tokens to others", () => {
      const hasher = createHasher();
      expect(hasher.hash("app-one")).toBe(hasher.hash("app-one"));
      expect(hasher.hash("app-one")).not.toBe(hasher.hash("app-One"));
      expect(hasher.hash("app-one")).not.toBe(hasher.hash("app-one "));
    });

    it("never keeps the token in its hash", () => {
      const token = "ds-8Vq2mXr7Lk3Np9Ws4Bt6Yc1Zd5Fh0Gj";
      expect(createHasher().hash(token)).not.toContain(token.slice(3));
    });

    it("matches a token to its own hash only", () => {
      const hasher = createHasher();
      const hash = hasher.hash("app-one");
      expect(hasher.matches("app-one", hash)).toBe(true);
      expect(hasher.matches("app-two", hash)).toBe(false);
      expect(hasher.matches("app-one", "")).toBe(false);
    });
  });
}
