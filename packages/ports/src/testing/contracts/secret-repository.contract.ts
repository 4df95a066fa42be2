import { describe, expect, it } from "vitest";
import { type OpenStore, useStore } from "./use-store.js";

/** A secret is stored once, by whichever candidate comes first, and kept from then on. */
export function describeSecretRepositoryContract(openStore: OpenStore): void {
  describe("SecretRepository contract", () => {
    const repositories = useStore(openStore);
    const KEY = "Zm9vYmFyLWJhei1xdXV4LTAxMjM0NTY3ODlfLWFiY2RlZmdo";

    it("stores and returns the first candidate, and returns it again for every later one", async () => {
      const { secrets } = repositories();
      expect(await secrets.ensure("signing-key", KEY)).toBe(KEY);
      expect(await secrets.ensure("signing-key", KEY)).toBe(KEY);
      expect(await secrets.ensure("signing-key", "another candidate")).toBe(KEY);
    });

    it("keeps each name's secret apart", async () => {
      const { secrets } = repositories();
      expect(await secrets.ensure("signing-key", "first")).toBe("first");
      expect(await secrets.ensure("Signing-Key", "second")).toBe("second");
      expect(await secrets.ensure("other-key", "third")).toBe("third");
      expect(await secrets.ensure("signing-key", "fourth")).toBe("first");
      expect(await secrets.ensure("Signing-Key", "fifth")).toBe("second");
    });

    it("gives calls racing with different candidates the one value that was stored", async () => {
      const { secrets } = repositories();
      const names = Array.from({ length: 10 }, (_, index) => `raced-${index}`);
      const raced = await Promise.all(
        names.map((name) =>
          Promise.all([secrets.ensure(name, `${name}-a`), secrets.ensure(name, `${name}-b`)]),
        ),
      );
      for (const [index, [first, second]] of raced.entries()) {
        expect([`raced-${index}-a`, `raced-${index}-b`]).toContain(first);
        expect(second).toBe(first);
        expect(await secrets.ensure(`raced-${index}`, "late")).toBe(first);
      }
    });

    it("keeps a secret stored in a transaction that resolves, and none from one that rejects", async () => {
      const store = await openStore();
      try {
        const failure = new Error("roll back");
        await expect(
          store.transaction(async ({ secrets }) => {
            expect(await secrets.ensure("signing-key", "rolled back")).toBe("rolled back");
            throw failure;
          }),
        ).rejects.toBe(failure);
        expect(await store.transaction(({ secrets }) => secrets.ensure("other-key", "committed"))).toBe(
          "committed",
        );
        expect(await store.repositories.secrets.ensure("signing-key", "kept")).toBe("kept");
        expect(await store.repositories.secrets.ensure("other-key", "later")).toBe("committed");
      } finally {
        await store.close();
      }
    });
  });
}
