import type { RetrievalModel } from "@service-api/domain";
import { describe, expect, it } from "vitest";
import { aChunk, aDataset, aDocument, aMetadataField, anUploadFile, aTag, aWorkspace } from "../fixtures.js";
import { type OpenStore, useStore } from "./use-store.js";

const FULL_TEXT: RetrievalModel = {
  search_method: "full_text_search",
  reranking_enable: false,
  reranking_model: { reranking_provider_name: "", reranking_model_name: "" },
  reranking_mode: null,
  top_k: 7,
  score_threshold_enabled: true,
  score_threshold: 0.25,
  weights: null,
};

/** What datasets made, changed and deleted by the API need of a DatasetRepository. */
export function describeDatasetLifecycleContract(openStore: OpenStore): void {
  describe("DatasetRepository contract: create, update, delete", () => {
    const repositories = useStore(openStore);

    async function twoWorkspaces() {
      const { workspaces } = repositories();
      const [workspace, other] = [aWorkspace(), aWorkspace()];
      await workspaces.save(workspace);
      await workspaces.save(other);
      return { workspace, other };
    }

    it("creates a dataset with its settings, unless its workspace has one of its name", async () => {
      const { datasets } = repositories();
      const { workspace, other } = await twoWorkspaces();
      const dataset = aDataset(workspace.id, {
        name: "Docs",
        indexingTechnique: null,
        permission: "only_me",
        retrievalModel: FULL_TEXT,
        processRule: undefined,
      });
      expect(await datasets.create(dataset)).toBe(true);
      expect(await datasets.findInWorkspace(workspace.id, dataset.id)).toEqual(dataset);
      expect(await datasets.create(aDataset(workspace.id, { name: "Docs" }))).toBe(false);
      expect(await datasets.create(aDataset(workspace.id, { name: "docs" }))).toBe(true);
      expect(await datasets.create(aDataset(other.id, { name: "Docs" }))).toBe(true);
      expect((await datasets.listInWorkspace(workspace.id)).map((each) => each.name).sort()).toEqual([
        "Docs",
        "docs",
      ]);
    });

    it("lets exactly one of concurrent creates of a name through", async () => {
      const { datasets } = repositories();
      const { workspace } = await twoWorkspaces();
      const results = await Promise.all(
        Array.from({ length: 6 }, () => datasets.create(aDataset(workspace.id, { name: "Racing" }))),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await datasets.listInWorkspace(workspace.id)).toHaveLength(1);
    });

    it("refuses an import's save of a name another dataset of the workspace holds, writing nothing", async () => {
      const { datasets } = repositories();
      const { workspace } = await twoWorkspaces();
      const first = aDataset(workspace.id, { name: "Docs" });
      await datasets.save(first);
      const second = aDataset(workspace.id, { name: "Docs" });
      expect(await datasets.save(second)).toBe("name_taken");
      expect(await datasets.findInWorkspace(workspace.id, second.id)).toBeUndefined();
      expect(await datasets.save({ ...first, description: "again" })).toBeUndefined();
    });

    it("updates only the settings given, with who changed it when", async () => {
      const { datasets } = repositories();
      const { workspace, other } = await twoWorkspaces();
      const dataset = aDataset(workspace.id, { name: "Docs", indexingTechnique: null });
      await datasets.create(dataset);
      const changed = await datasets.update(workspace.id, dataset.id, {
        description: "All of it",
        retrievalModel: FULL_TEXT,
        updatedBy: "member-1",
        updatedAt: 1_800_000_000,
      });
      const expected = {
        ...dataset,
        description: "All of it",
        retrievalModel: FULL_TEXT,
        updatedBy: "member-1",
        updatedAt: 1_800_000_000,
      };
      expect(changed).toEqual(expected);
      expect(await datasets.findInWorkspace(workspace.id, dataset.id)).toEqual(expected);
      const renamed = await datasets.update(workspace.id, dataset.id, {
        name: "Docs",
        indexingTechnique: "economy",
        permission: "partial_members",
        updatedBy: null,
        updatedAt: 1_800_000_001,
      });
      expect(renamed).toMatchObject({
        name: "Docs",
        indexingTechnique: "economy",
        permission: "partial_members",
      });
      expect(
        await datasets.update(other.id, dataset.id, { name: "Moved", updatedBy: null, updatedAt: 1 }),
      ).toBe("not_found");
    });

    it("refuses a rename to a name another dataset of the workspace holds, changing nothing", async () => {
      const { datasets } = repositories();
      const { workspace } = await twoWorkspaces();
      const [first, second] = [aDataset(workspace.id, { name: "A" }), aDataset(workspace.id, { name: "B" })];
      await datasets.create(first);
      await datasets.create(second);
      expect(
        await datasets.update(workspace.id, second.id, {
          name: "A",
          description: "lost",
          updatedBy: null,
          updatedAt: 5,
        }),
      ).toBe("name_taken");
      expect(await datasets.findInWorkspace(workspace.id, second.id)).toEqual(second);
    });

    it("deletes a dataset from every read at once: lookups, lists, pages, its tags, its name", async () => {
      const { datasets, documents, tags, workspaces } = repositories();
      const { workspace, other } = await twoWorkspaces();
      const dataset = aDataset(workspace.id, { name: "Docs" });
      const kept = aDataset(workspace.id, { name: "Kept" });
      await datasets.create(dataset);
      await datasets.create(kept);
      const document = aDocument(dataset.id);
      await documents.save(document);
      const tag = aTag(workspace.id);
      await tags.save(tag);
      await tags.bindToDataset({
        workspaceId: workspace.id,
        datasetId: dataset.id,
        tags: [{ tagId: tag.id, bindingId: globalThis.crypto.randomUUID() }],
        createdAt: 1,
      });

      expect(await datasets.moveToTrash(other.id, dataset.id)).toBe(false);
      expect(await datasets.moveToTrash(workspace.id, dataset.id)).toBe(true);
      expect(await datasets.moveToTrash(workspace.id, dataset.id)).toBe(false);

      expect(await datasets.findInWorkspace(workspace.id, dataset.id)).toBeUndefined();
      expect(await datasets.findOverview(workspace.id, dataset.id)).toBeUndefined();
      expect((await datasets.listInWorkspace(workspace.id)).map((each) => each.id)).toEqual([kept.id]);
      const page = await datasets.listPage(workspace.id, {}, 0, 20);
      expect({ ids: page.items.map((item) => item.dataset.id), total: page.total }).toEqual({
        ids: [kept.id],
        total: 1,
      });
      expect(await documents.findDetail(workspace.id, dataset.id, document.id)).toMatchObject({
        dataset: undefined,
      });
      expect((await tags.listCounted(workspace.id, "knowledge")).map((each) => each.bindingCount)).toEqual([
        0,
      ]);
      expect((await workspaces.list()).map((each) => each.id).sort()).toEqual(
        [workspace.id, other.id].sort(),
      );
      expect(await datasets.create(aDataset(workspace.id, { name: "Docs" }))).toBe(true);
    });

    it("purges a deleted dataset a batch at a time, and only a deleted one", async () => {
      const { datasets, documents, metadata } = repositories();
      const { workspace } = await twoWorkspaces();
      const [gone, kept] = [aDataset(workspace.id), aDataset(workspace.id)];
      await datasets.create(gone);
      await datasets.create(kept);
      const shared = anUploadFile("member", { name: "shared.txt" });
      const own = anUploadFile("member", { name: "own.txt" });
      await documents.saveUploadFile(workspace.id, shared);
      await documents.saveUploadFile(workspace.id, own);
      const field = aMetadataField(gone.id);
      await metadata.saveField(field);
      const purged = Array.from({ length: 7 }, (_, index) =>
        aDocument(gone.id, { position: index + 1, uploadFileId: index === 0 ? shared.id : own.id }),
      );
      for (const document of purged) await documents.save(document);
      await documents.saveChunks(purged.map((document) => aChunk(document.id)));
      await metadata.setValue(purged[0]!.id, field.id, "x");
      const survivor = aDocument(kept.id, { uploadFileId: shared.id });
      await documents.save(survivor);

      expect(await datasets.purgeTrashed(kept.id, 3)).toBe("done");
      expect(await documents.findInDataset(kept.id, survivor.id)).toBeDefined();

      await datasets.moveToTrash(workspace.id, gone.id);
      const steps: string[] = [];
      for (
        let step = await datasets.purgeTrashed(gone.id, 3);
        ;
        step = await datasets.purgeTrashed(gone.id, 3)
      ) {
        steps.push(step);
        if (step === "done" || steps.length > 10) break;
      }
      expect(steps).toEqual(["more", "more", "more", "done"]);
      for (const document of purged) {
        expect(await documents.findInDataset(gone.id, document.id)).toBeUndefined();
        expect(await documents.listChunks(document.id)).toEqual([]);
      }
      expect(await metadata.valuesOf(purged[0]!.id)).toEqual([]);
      expect(await metadata.listFields(gone.id)).toEqual([]);
      expect(await documents.findUploadFile(own.id)).toBeUndefined();
      expect(await documents.findUploadFile(shared.id)).toEqual(shared);
      expect(await datasets.purgeTrashed(gone.id, 3)).toBe("done");
      expect(await documents.findInDataset(kept.id, survivor.id)).toBeDefined();
    });
  });
}
