import { StoreUnavailableError } from "@service-api/domain";
import { describe, expect, it } from "vitest";
import { aDataset, aTag, aWorkspace } from "../fixtures.js";
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

    it("reads one state in a snapshot: writes committed after its first read are not seen in it", async () => {
      const store = await openStore();
      try {
        const workspace = aWorkspace();
        const dataset = aDataset(workspace.id);
        await store.repositories.workspaces.save(workspace);
        await store.repositories.datasets.save(dataset);
        const added = aWorkspace();
        const seen = await store.snapshot(async ({ workspaces, datasets }) => {
          const first = await workspaces.findById(workspace.id);
          // Another writer's commits, on another connection where the store has one.
          await store.repositories.workspaces.save({ ...workspace, name: "Renamed" });
          await store.repositories.workspaces.save(added);
          await store.repositories.datasets.save({ ...dataset, name: "Renamed" });
          return {
            first,
            again: await workspaces.findById(workspace.id),
            all: await workspaces.list(),
            dataset: await datasets.findInWorkspace(workspace.id, dataset.id),
          };
        });
        expect(seen).toEqual({ first: workspace, again: workspace, all: [workspace], dataset });
        expect(await store.repositories.workspaces.findById(workspace.id)).toMatchObject({ name: "Renamed" });
        expect(await store.repositories.workspaces.findById(added.id)).toEqual(added);
      } finally {
        await store.close();
      }
    });

    it("starts each snapshot at the latest commit, after earlier snapshots ended or failed", async () => {
      const store = await openStore();
      try {
        const workspace = aWorkspace();
        await store.repositories.workspaces.save(workspace);
        const read = () => store.snapshot(({ workspaces }) => workspaces.findById(workspace.id));
        expect(await read()).toEqual(workspace);
        await store.repositories.workspaces.save({ ...workspace, name: "Second" });
        expect(await read()).toMatchObject({ name: "Second" });
        await expect(
          store.snapshot(async ({ workspaces }) => {
            await workspaces.findById(workspace.id);
            throw new Error("stop here");
          }),
        ).rejects.toThrow("stop here");
        await store.repositories.workspaces.save({ ...workspace, name: "Third" });
        // Several at once, then one after them: each reads the state of its start.
        const together = await Promise.all([read(), read(), read(), read(), read(), read()]);
        expect(together.map((seen) => seen?.name)).toEqual(Array(6).fill("Third"));
        await store.repositories.workspaces.save({ ...workspace, name: "Fourth" });
        expect(await read()).toMatchObject({ name: "Fourth" });
      } finally {
        await store.close();
      }
    });

    it("passes a snapshot's result and rejection on, running its work once", async () => {
      const store = await openStore();
      try {
        let runs = 0;
        expect(await store.snapshot(async () => ++runs)).toBe(1);
        const failure = new Error("stop here");
        await expect(
          store.snapshot(async () => {
            runs += 1;
            throw failure;
          }),
        ).rejects.toBe(failure);
        expect(runs).toBe(2);
      } finally {
        await store.close();
      }
    });
  });
}

/**
 * For stores with real transactions (not the in-memory double): statements made beside an open
 * transaction neither see its writes nor become part of it, and a snapshot refuses writes.
 */
export function describeStoreIsolationContract(openStore: OpenStore): void {
  describe("Store isolation contract", () => {
    it("keeps reads and writes made while a transaction is open out of it", async () => {
      const store = await openStore();
      try {
        const workspace = aWorkspace();
        const dataset = aDataset(workspace.id);
        const tag = aTag(workspace.id);
        await store.repositories.workspaces.save(workspace);
        await store.repositories.datasets.save(dataset);
        await store.repositories.tags.save(tag);
        let entered!: () => void;
        let release!: () => void;
        const inside = new Promise<void>((resolve) => {
          entered = resolve;
        });
        const paused = new Promise<void>((resolve) => {
          release = resolve;
        });
        const failure = new Error("roll back");
        const transaction = store.transaction(async ({ workspaces }) => {
          await workspaces.save({ ...workspace, name: "Uncommitted" });
          entered();
          await paused;
          throw failure;
        });
        await inside;
        const read = store.repositories.workspaces.findById(workspace.id);
        const write = store.repositories.tags.bind([
          {
            id: globalThis.crypto.randomUUID(),
            workspaceId: workspace.id,
            tagId: tag.id,
            targetId: dataset.id,
            createdAt: 1,
          },
        ]);
        release();
        await expect(transaction).rejects.toBe(failure);
        expect((await read)?.name).toBe(workspace.name);
        await write;
        expect(await store.repositories.tags.boundTagIds(dataset.id)).toEqual([tag.id]);
      } finally {
        await store.close();
      }
    });

    it("refuses a write made in a snapshot, and keeps nothing of it", async () => {
      const store = await openStore();
      try {
        const workspace = aWorkspace();
        await expect(store.snapshot(({ workspaces }) => workspaces.save(workspace))).rejects.toThrow();
        expect(await store.repositories.workspaces.findById(workspace.id)).toBeUndefined();
      } finally {
        await store.close();
      }
    });
  });
}

/**
 * For stores that hold a database (not the in-memory double): closing settles what was called
 * before it, the calls a pool had queued included, and refuses what is called after it with the
 * store's one error for it, a `StoreUnavailableError`, without reaching the closed driver.
 */
export function describeStoreCloseContract(openStore: OpenStore): void {
  describe("Store close contract", () => {
    it("settles every call made before close, more than a pool holds at once, then closes", async () => {
      const store = await openStore();
      const workspace = aWorkspace();
      await store.repositories.workspaces.save(workspace);
      const reads = Array.from({ length: 40 }, () => store.repositories.workspaces.findById(workspace.id));
      const written = store.transaction(({ datasets }) => datasets.save(aDataset(workspace.id)));
      const closing = store.close();
      expect(await Promise.all(reads)).toEqual(reads.map(() => workspace));
      await expect(written).resolves.toBeUndefined();
      await closing;
    });

    it("refuses calls made after close with a StoreUnavailableError, and closes once however often asked", async () => {
      const store = await openStore();
      const closing = store.close();
      const refused = [
        store.repositories.workspaces.findById(aWorkspace().id),
        store.repositories.workspaces.save(aWorkspace()),
        store.transaction(async () => "ran"),
        store.ping(),
      ];
      for (const call of refused) {
        const error = await call.then(
          () => undefined,
          (failure: unknown) => failure,
        );
        expect(error).toBeInstanceOf(StoreUnavailableError);
        expect(error).toMatchObject({ code: "service_unavailable" });
      }
      await closing;
      await expect(store.close()).resolves.toBeUndefined();
      await expect(store.repositories.tags.listInWorkspace(aWorkspace().id)).rejects.toBeInstanceOf(
        StoreUnavailableError,
      );
    });
  });
}
