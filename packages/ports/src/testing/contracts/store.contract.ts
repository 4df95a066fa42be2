import { describe, expect, it } from "vitest";
import { aDataset, aWorkspace } from "../fixtures.js";
import type { OpenStore } from "./use-store.js";

export function describeStoreTransactionContract(openStore: OpenStore): void {
  describe("Store transaction contract", () => {
    it("keeps every write of a transaction that resolves, and passes its result on", async () => {
      const store = await openStore();
      try {
        const workspace = aWorkspace();
        const dataset = aDataset(workspace.id);
        const result = await store.transaction(async ({ workspaces, datasets }) => {
          await workspaces.save(workspace);
          await datasets.save(dataset);
          return "done";
        });
        expect(result).toBe("done");
        expect(await store.repositories.datasets.findInWorkspace(workspace.id, dataset.id)).toEqual(dataset);
      } finally {
        await store.close();
      }
    });

    it("keeps no write of a transaction that rejects, and passes the rejection on", async () => {
      const store = await openStore();
      try {
        const before = aWorkspace();
        await store.repositories.workspaces.save(before);
        const workspace = aWorkspace();
        const failure = new Error("stop here");
        await expect(
          store.transaction(async ({ workspaces, datasets }) => {
            await workspaces.save(workspace);
            await workspaces.save({ ...before, name: "Changed" });
            await datasets.save(aDataset(workspace.id));
            throw failure;
          }),
        ).rejects.toBe(failure);
        expect(await store.repositories.workspaces.findById(workspace.id)).toBeUndefined();
        expect(await store.repositories.workspaces.findById(before.id)).toEqual(before);
      } finally {
        await store.close();
      }
    });
  });
}
