import { describe, expect, it } from "vitest";
import { aDataset, aDocument, aMetadataField, aWorkspace } from "../fixtures.js";
import { type OpenStore, useStore } from "./use-store.js";

export function describeMetadataRepositoryContract(openStore: OpenStore): void {
  describe("MetadataRepository contract", () => {
    const repositories = useStore(openStore);

    async function seed() {
      const { workspaces, datasets, documents } = repositories();
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      const dataset = aDataset(workspace.id);
      const other = aDataset(workspace.id);
      await datasets.save(dataset);
      await datasets.save(other);
      const docs = [aDocument(dataset.id), aDocument(dataset.id), aDocument(other.id)] as const;
      for (const document of docs) await documents.save(document);
      return { dataset, other, docs };
    }

    it("lists a dataset's fields in creation order", async () => {
      const { metadata } = repositories();
      const { dataset, other } = await seed();
      const later = aMetadataField(dataset.id, { name: "year", type: "number", createdAt: 20 });
      const earlier = aMetadataField(dataset.id, { name: "author", createdAt: 10 });
      await metadata.saveField(later);
      await metadata.saveField(earlier);
      await metadata.saveField(aMetadataField(other.id, { name: "author" }));
      expect(await metadata.listFields(dataset.id)).toEqual([earlier, later]);
    });

    it("reads the workspace's dataset with its document count and field usage together", async () => {
      const { metadata, datasets } = repositories();
      const { dataset, other, docs } = await seed();
      const year = aMetadataField(dataset.id, { name: "year", type: "number", createdAt: 20 });
      const author = aMetadataField(dataset.id, { name: "author", createdAt: 10 });
      await metadata.saveField(year);
      await metadata.saveField(author);
      await metadata.setValue(docs[0].id, author.id, "Ada");
      expect(await metadata.findFieldUsage(dataset.workspaceId, dataset.id)).toEqual({
        dataset: await datasets.findInWorkspace(dataset.workspaceId, dataset.id),
        documentCount: 2,
        fields: [
          { id: author.id, name: "author", type: "string", count: 1 },
          { id: year.id, name: "year", type: "number", count: 0 },
        ],
      });
      expect(await metadata.findFieldUsage(other.workspaceId, other.id)).toEqual({
        dataset: await datasets.findInWorkspace(other.workspaceId, other.id),
        documentCount: 1,
        fields: [],
      });
      expect(await metadata.findFieldUsage(aWorkspace().id, dataset.id)).toEqual({
        dataset: undefined,
        documentCount: 0,
        fields: [],
      });
    });

    it("saves a field unless its id is another dataset's, its stored type differs or its name is taken", async () => {
      const { metadata } = repositories();
      const { dataset, other } = await seed();
      const [field, holder] = [
        aMetadataField(dataset.id, { name: "author", createdAt: 1 }),
        aMetadataField(dataset.id, { name: "year", type: "number", createdAt: 2 }),
      ];
      expect(await metadata.saveField(field)).toBeUndefined();
      expect(await metadata.saveField(holder)).toBeUndefined();
      expect(await metadata.saveField({ ...field, name: "writer" })).toBeUndefined();
      expect(await metadata.saveField({ ...field, datasetId: other.id })).toBe("owned_elsewhere");
      expect(await metadata.saveField({ ...field, type: "number" })).toBe("type_differs");
      expect(await metadata.saveField({ ...field, name: "year" })).toBe("name_taken");
      expect(await metadata.saveField(aMetadataField(dataset.id, { name: "year" }))).toBe("name_taken");
      const elsewhere = aMetadataField(other.id, { name: "year" });
      expect(await metadata.saveField(elsewhere)).toBeUndefined();
      expect(await metadata.listFields(dataset.id)).toEqual([{ ...field, name: "writer" }, holder]);
      expect(await metadata.listFields(other.id)).toEqual([elsewhere]);
    });

    it("gives a document's values in field order, one per field", async () => {
      const { metadata } = repositories();
      const { dataset, docs } = await seed();
      const author = aMetadataField(dataset.id, { name: "author", createdAt: 10 });
      const year = aMetadataField(dataset.id, { name: "year", type: "number", createdAt: 20 });
      const unused = aMetadataField(dataset.id, { name: "unused", createdAt: 30 });
      for (const field of [year, unused, author]) await metadata.saveField(field);
      await metadata.setValue(docs[0].id, year.id, "1843");
      await metadata.setValue(docs[0].id, author.id, "Ada");
      await metadata.setValue(docs[0].id, author.id, "Ada Lovelace");
      expect(await metadata.valuesOf(docs[0].id)).toEqual([
        { id: author.id, name: "author", type: "string", value: "Ada Lovelace" },
        { id: year.id, name: "year", type: "number", value: "1843" },
      ]);
      expect(await metadata.valuesOf(docs[1].id)).toEqual([]);
    });

    it("lists fields with the documents holding each, right after values are set", async () => {
      const { metadata } = repositories();
      const { dataset, other, docs } = await seed();
      const author = aMetadataField(dataset.id, { name: "author", createdAt: 1 });
      const empty = aMetadataField(dataset.id, { name: "empty", createdAt: 2 });
      const foreign = aMetadataField(other.id, { name: "author" });
      for (const field of [author, empty, foreign]) await metadata.saveField(field);
      await metadata.setValue(docs[0].id, author.id, "a");
      expect((await metadata.listFieldUsage(dataset.id)).find((field) => field.id === author.id)?.count).toBe(
        1,
      );
      await metadata.setValue(docs[1].id, author.id, "b");
      await metadata.setValue(docs[1].id, author.id, "c");
      await metadata.setValue(docs[2].id, foreign.id, "d");
      expect(await metadata.listFieldUsage(dataset.id)).toEqual([
        { id: author.id, name: "author", type: "string", count: 2 },
        { id: empty.id, name: "empty", type: "string", count: 0 },
      ]);
    });
  });
}
