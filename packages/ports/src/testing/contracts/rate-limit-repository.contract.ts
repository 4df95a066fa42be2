import { describe, expect, it } from "vitest";
import { type OpenStore, useStore } from "./use-store.js";

export function describeRateLimitRepositoryContract(openStore: OpenStore): void {
  describe("RateLimitRepository contract", () => {
    const repositories = useStore(openStore);
    const NOW = 1_800_000_000_000;

    it("starts a window at the first hit and counts hits until it ends", async () => {
      const { rateLimits } = repositories();
      expect(await rateLimits.hit("key:a", NOW, 60_000)).toEqual({ hits: 1, resetAtMs: NOW + 60_000 });
      expect(await rateLimits.hit("key:a", NOW + 10, 60_000)).toEqual({ hits: 2, resetAtMs: NOW + 60_000 });
      expect(await rateLimits.hit("key:b", NOW + 20, 1_000)).toEqual({ hits: 1, resetAtMs: NOW + 1_020 });
      expect(await rateLimits.hit("key:a", NOW + 59_999, 60_000)).toEqual({
        hits: 3,
        resetAtMs: NOW + 60_000,
      });
    });

    it("starts a new window once the last one has ended", async () => {
      const { rateLimits } = repositories();
      await rateLimits.hit("key:a", NOW, 1_000);
      await rateLimits.hit("key:a", NOW, 1_000);
      expect(await rateLimits.hit("key:a", NOW + 1_000, 1_000)).toEqual({ hits: 1, resetAtMs: NOW + 2_000 });
    });

    it("takes hits back within the window, never below 0, and not from an ended window", async () => {
      const { rateLimits } = repositories();
      await rateLimits.hit("key:a", NOW, 1_000);
      await rateLimits.hit("key:a", NOW, 1_000);
      await rateLimits.unhit("key:a", NOW + 1);
      expect(await rateLimits.hit("key:a", NOW + 2, 1_000)).toMatchObject({ hits: 2 });
      for (let times = 0; times < 4; times++) await rateLimits.unhit("key:a", NOW + 3);
      expect(await rateLimits.hit("key:a", NOW + 4, 1_000)).toMatchObject({ hits: 1 });
      await rateLimits.unhit("key:gone", NOW);
      await rateLimits.unhit("key:a", NOW + 5_000);
      expect(await rateLimits.hit("key:a", NOW + 5_000, 1_000)).toEqual({ hits: 1, resetAtMs: NOW + 6_000 });
    });

    it("forgets a key on reset, and ended windows on deleteEnded", async () => {
      const { rateLimits } = repositories();
      await rateLimits.hit("key:a", NOW, 1_000);
      await rateLimits.hit("key:b", NOW, 5_000);
      await rateLimits.hit("key:c", NOW, 10_000);
      await rateLimits.reset("key:c");
      expect(await rateLimits.deleteEnded(NOW + 5_000)).toBe(2);
      expect(await rateLimits.deleteEnded(NOW + 5_000)).toBe(0);
      expect(await rateLimits.hit("key:c", NOW + 1, 10_000)).toMatchObject({ hits: 1 });
    });

    it("loses no hit to concurrent calls", async () => {
      const { rateLimits } = repositories();
      await Promise.all(Array.from({ length: 40 }, () => rateLimits.hit("key:busy", NOW, 60_000)));
      expect(await rateLimits.hit("key:busy", NOW, 60_000)).toMatchObject({ hits: 41 });
    });
  });
}
