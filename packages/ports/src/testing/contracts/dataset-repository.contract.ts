import { describe, expect, it } from "vitest";
import { aDataset, aWorkspace } from "../fixtures.js";
import { type OpenStore, useStore } from "./use-store.js";

export function describeDatasetRepositoryContract(openStore: OpenStore): void {
  describe("DatasetRepository contract", () => {
    const repositories = useStore(openStore);

    it("finds a dataset, with its processing rule, only in its own workspace", async () => {
      const { workspaces, datasets } = repositories();
      const [mine, other] = [aWorkspace(), aWorkspace()];
      await workspaces.save(mine);
      await workspaces.save(other);
      const dataset = aDataset(mine.id, {
        processRule: { id: "rule-1", mode: "custom", rules: { a: [1, { b: true }] } },
      });
      await datasets.save(dataset);
      expect(await datasets.findInWorkspace(mine.id, dataset.id)).toEqual(dataset);
      expect(await datasets.findInWorkspace(other.id, dataset.id)).toBeUndefined();
      expect(await datasets.findInWorkspace(mine.id, "not-a-uuid")).toBeUndefined();
    });

    it("keeps a dataset without a processing rule, and flags as saved", async () => {
      const { workspaces, datasets } = repositories();
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      const dataset = aDataset(workspace.id, {
        processRule: undefined,
        enableApi: false,
        builtInFieldEnabled: true,
      });
      await datasets.save(dataset);
      expect(await datasets.findInWorkspace(workspace.id, dataset.id)).toEqual(dataset);
    });

    it("replaces a dataset saved again", async () => {
      const { workspaces, datasets } = repositories();
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      const dataset = aDataset(workspace.id);
      await datasets.save(dataset);
      const changed = {
        ...dataset,
        name: "Renamed",
        enableApi: false,
        processRule: { id: "r2", mode: "custom", rules: {} },
      };
      await datasets.save(changed);
      expect(await datasets.findInWorkspace(workspace.id, dataset.id)).toEqual(changed);
    });

    it("lists a workspace's datasets oldest first", async () => {
      const { workspaces, datasets } = repositories();
      const [workspace, other] = [aWorkspace(), aWorkspace()];
      await workspaces.save(workspace);
      await workspaces.save(other);
      const newer = aDataset(workspace.id, { createdAt: 20 });
      const older = aDataset(workspace.id, { createdAt: 10 });
      for (const dataset of [newer, older, aDataset(other.id)]) await datasets.save(dataset);
      expect(await datasets.listInWorkspace(workspace.id)).toEqual([older, newer]);
    });
  });
}
