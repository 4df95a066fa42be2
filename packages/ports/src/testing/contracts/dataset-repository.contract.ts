import { describe, expect, it } from "vitest";
import { aDataset, aDocument, aWorkspace } from "../fixtures.js";
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

    it("never moves a dataset: a save naming another workspace's dataset writes nothing, answering why", async () => {
      const { workspaces, datasets } = repositories();
      const [mine, other] = [aWorkspace(), aWorkspace()];
      await workspaces.save(mine);
      await workspaces.save(other);
      const dataset = aDataset(mine.id);
      expect(await datasets.save(dataset)).toBeUndefined();
      expect(await datasets.save({ ...dataset, name: "Renamed" })).toBeUndefined();
      expect(await datasets.save({ ...dataset, workspaceId: other.id, name: "Moved" })).toBe(
        "owned_elsewhere",
      );
      expect(await datasets.findInWorkspace(mine.id, dataset.id)).toEqual({ ...dataset, name: "Renamed" });
      expect(await datasets.listInWorkspace(other.id)).toEqual([]);
    });

    it("finds the datasets holding processing rule ids, as their own rule or a document's", async () => {
      const { workspaces, datasets, documents } = repositories();
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      const rule = (id: string) => ({ id, mode: "automatic", rules: {} });
      const first = aDataset(workspace.id, { processRule: rule("rule-a") });
      const second = aDataset(workspace.id, { processRule: undefined });
      await datasets.save(first);
      await datasets.save(second);
      for (const id of ["rule-a", "rule-b", "rule-b"])
        await documents.save(aDocument(second.id, { processRule: rule(id) }));
      const holders = await datasets.findProcessRuleHolders(["rule-a", "rule-b", "rule-c", "rule-a"]);
      expect(new Map([...holders].map(([id, held]) => [id, held.sort()]))).toEqual(
        new Map([
          ["rule-a", [first.id, second.id].sort()],
          ["rule-b", [second.id]],
        ]),
      );
      expect(await datasets.findProcessRuleHolders([])).toEqual(new Map());
    });
  });
}
