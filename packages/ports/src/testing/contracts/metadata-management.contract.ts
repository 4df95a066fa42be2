import { describe, expect, it } from "vitest";
import { aDataset, aDocument, aMetadataField, aWorkspace } from "../fixtures.js";
import { type OpenStore, useStore } from "./use-store.js";

/** What metadata management needs of a MetadataRepository: unique names, renames, deletes, clearing values. */
export function describeMetadataManagementContract(openStore: OpenStore): void {
  describe("MetadataRepository contract: management", () => {
    const repositories = useStore(openStore);

    async function seed() {
      const { workspaces, datasets, documents } = repositories();
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      const dataset = aDataset(workspace.id);
      const other = aDataset(workspace.id);
      await datasets.save(dataset);
      await datasets.save(other);
      const docs = [aDocument(dataset.id), aDocument(dataset.id)] as const;
      for (const document of docs) await documents.save(document);
      return { dataset, other, docs };
    }

    it("creates, renames and deletes a field, checking as it writes that the dataset serves the workspace", async () => {
      const { metadata, workspaces, datasets } = repositories();
      const { dataset, docs } = await seed();
      const stranger = aWorkspace();
      await workspaces.save(stranger);
      const field = aMetadataField(dataset.id, { name: "author", createdAt: 1 });
      const refusedEverywhere = async () => {
        for (const servedTo of [stranger.id, dataset.workspaceId]) {
          expect(await metadata.createField(aMetadataField(dataset.id, { name: "fresh" }), servedTo)).toBe(
            false,
          );
          expect(await metadata.renameField(dataset.id, field.id, "fresh", servedTo)).toBe("not_found");
          expect(await metadata.deleteField(dataset.id, field.id, servedTo)).toBe(false);
        }
      };

      expect(await metadata.createField(field, stranger.id)).toBe(false);
      expect(await metadata.createField(field, dataset.workspaceId)).toBe(true);
      await metadata.setValue(docs[0].id, field.id, "x");
      expect(await metadata.renameField(dataset.id, field.id, "writer", stranger.id)).toBe("not_found");
      expect(await metadata.deleteField(dataset.id, field.id, stranger.id)).toBe(false);
      // A dataset whose API is off serves no workspace: nothing is written.
      await datasets.save({ ...dataset, enableApi: false });
      await refusedEverywhere();
      expect(await metadata.listFields(dataset.id)).toEqual([{ ...field }]);
      expect(await metadata.valuesOf(docs[0].id)).toHaveLength(1);

      await datasets.save(dataset);
      expect(await metadata.renameField(dataset.id, field.id, "writer", dataset.workspaceId)).toEqual({
        ...field,
        name: "writer",
      });
      expect(await metadata.deleteField(dataset.id, field.id, dataset.workspaceId)).toBe(true);
      expect(await metadata.listFields(dataset.id)).toEqual([]);
    });

    it("creates a field unless its dataset has one of that name, and exactly one of concurrent creates", async () => {
      const { metadata } = repositories();
      const { dataset, other } = await seed();
      expect(await metadata.createField(aMetadataField(dataset.id, { name: "author", createdAt: 1 }))).toBe(
        true,
      );
      expect(await metadata.createField(aMetadataField(dataset.id, { name: "author", createdAt: 2 }))).toBe(
        false,
      );
      expect(await metadata.createField(aMetadataField(other.id, { name: "author" }))).toBe(true);
      const results = await Promise.all(
        Array.from({ length: 6 }, () => metadata.createField(aMetadataField(dataset.id, { name: "race" }))),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      expect((await metadata.listFields(dataset.id)).map((field) => field.name)).toEqual(["author", "race"]);
    });

    it("lists fields created in the same second in the order they were created, whatever their ids", async () => {
      const { metadata } = repositories();
      const { dataset, docs } = await seed();
      const ids = ["f", "e", "d", "c", "b", "a"].map(
        (digit) => `${digit.repeat(8)}-0000-4000-8000-000000000000`,
      );
      const fields = ids.map((id, index) =>
        aMetadataField(dataset.id, { id, name: `field ${index}`, createdAt: 5 }),
      );
      for (const field of fields) {
        await metadata.createField(field);
        await metadata.setValue(docs[0].id, field.id, "x");
      }
      const names = fields.map((field) => field.name);
      expect((await metadata.listFields(dataset.id)).map((field) => field.name)).toEqual(names);
      expect((await metadata.valuesOf(docs[0].id)).map((entry) => entry.name)).toEqual(names);
      expect((await metadata.listFieldUsage(dataset.id)).map((usage) => usage.name)).toEqual(names);
    });

    it("finds a field only in its dataset", async () => {
      const { metadata } = repositories();
      const { dataset, other } = await seed();
      const field = aMetadataField(dataset.id);
      await metadata.createField(field);
      expect(await metadata.findField(dataset.id, field.id)).toEqual(field);
      expect(await metadata.findField(other.id, field.id)).toBeUndefined();
    });

    it("renames a field, keeping every document's value, but not to another field's name", async () => {
      const { metadata } = repositories();
      const { dataset, other, docs } = await seed();
      const [author, year] = [
        aMetadataField(dataset.id, { name: "author", createdAt: 1 }),
        aMetadataField(dataset.id, { name: "year", createdAt: 2 }),
      ];
      await metadata.createField(author);
      await metadata.createField(year);
      await metadata.setValue(docs[0].id, author.id, "Ada");
      await metadata.setValue(docs[1].id, author.id, "Grace");
      const rename = (name: string) => metadata.renameField(dataset.id, author.id, name);
      expect(await rename("year")).toBe("name_taken");
      expect(await rename("author")).toEqual(author);
      expect(await metadata.renameField(other.id, author.id, "elsewhere")).toBe("not_found");
      expect(await metadata.renameField(dataset.id, "missing", "elsewhere")).toBe("not_found");
      expect(await rename("writer")).toEqual({ ...author, name: "writer" });
      expect(await metadata.valuesOf(docs[1].id)).toEqual([
        { id: author.id, name: "writer", type: "string", value: "Grace" },
      ]);
      expect((await metadata.listFieldUsage(dataset.id)).map((field) => [field.name, field.count])).toEqual([
        ["writer", 2],
        ["year", 0],
      ]);
    });

    it("deletes a field with its values, and the counts follow", async () => {
      const { metadata } = repositories();
      const { dataset, other, docs } = await seed();
      const [gone, kept] = [
        aMetadataField(dataset.id, { name: "gone", createdAt: 1 }),
        aMetadataField(dataset.id, { name: "kept", createdAt: 2 }),
      ];
      await metadata.createField(gone);
      await metadata.createField(kept);
      await metadata.setValue(docs[0].id, gone.id, "x");
      await metadata.setValue(docs[0].id, kept.id, "y");
      expect(await metadata.deleteField(other.id, gone.id)).toBe(false);
      expect(await metadata.valuesOf(docs[0].id)).toHaveLength(2);
      expect(await metadata.deleteField(dataset.id, gone.id)).toBe(true);
      expect(await metadata.deleteField(dataset.id, gone.id)).toBe(false);
      expect(await metadata.findField(dataset.id, gone.id)).toBeUndefined();
      expect(await metadata.valuesOf(docs[0].id)).toEqual([
        { id: kept.id, name: "kept", type: "string", value: "y" },
      ]);
      expect(await metadata.listFieldUsage(dataset.id)).toEqual([
        { id: kept.id, name: "kept", type: "string", count: 1 },
      ]);
    });

    it("clears one value or all of a document's, and the counts follow", async () => {
      const { metadata } = repositories();
      const { dataset, docs } = await seed();
      const [a, b] = [
        aMetadataField(dataset.id, { name: "a", createdAt: 1 }),
        aMetadataField(dataset.id, { name: "b", createdAt: 2 }),
      ];
      await metadata.createField(a);
      await metadata.createField(b);
      for (const document of docs) {
        await metadata.setValue(document.id, a.id, "1");
        await metadata.setValue(document.id, b.id, "2");
      }
      await metadata.clearValue(docs[0].id, a.id);
      await metadata.clearValue(docs[0].id, a.id);
      await metadata.clearValues(docs[1].id);
      expect(await metadata.valuesOf(docs[0].id)).toEqual([
        { id: b.id, name: "b", type: "string", value: "2" },
      ]);
      expect(await metadata.valuesOf(docs[1].id)).toEqual([]);
      expect((await metadata.listFieldUsage(dataset.id)).map((field) => field.count)).toEqual([0, 1]);
    });

    it("gives the values of several documents and the fields of several datasets at once", async () => {
      const { metadata } = repositories();
      const { dataset, other, docs } = await seed();
      const field = aMetadataField(dataset.id, { name: "a" });
      await metadata.createField(field);
      await metadata.setValue(docs[0].id, field.id, "1");
      const values = await metadata.valuesOfDocuments([docs[0].id, docs[1].id]);
      expect(values.get(docs[0].id)).toEqual([{ id: field.id, name: "a", type: "string", value: "1" }]);
      expect(values.get(docs[1].id)).toEqual([]);
      const fields = await metadata.listFieldsOf([dataset.id, other.id]);
      expect(fields.get(dataset.id)).toEqual([field]);
      expect(fields.get(other.id)).toEqual([]);
    });

    it("reads the workspace's dataset, its fields in creation order and which ids are its documents", async () => {
      const { metadata, documents } = repositories();
      const { dataset, other, docs } = await seed();
      const stranger = aDocument(other.id);
      await documents.save(stranger);
      const [late, early] = [
        aMetadataField(dataset.id, { name: "late", createdAt: 2 }),
        aMetadataField(dataset.id, { name: "early", createdAt: 1 }),
      ];
      for (const field of [late, early, aMetadataField(other.id)]) await metadata.createField(field);
      const ids = [docs[1].id, stranger.id, "missing", docs[1].id];
      const found = await metadata.findForValueWrite(dataset.workspaceId, dataset.id, ids);
      expect(found.dataset).toEqual(dataset);
      expect(found.fields).toEqual([early, late]);
      expect(found.documentIds).toEqual([docs[1].id]);
      expect(await metadata.findForValueWrite(other.workspaceId, other.id, [])).toEqual({
        dataset: other,
        fields: [expect.objectContaining({ datasetId: other.id })],
        documentIds: [],
      });
      expect(await metadata.findForValueWrite(crypto.randomUUID(), dataset.id, ids)).toEqual({
        dataset: undefined,
        fields: [],
        documentIds: [],
      });
      expect(await metadata.findForValueWrite(dataset.workspaceId, crypto.randomUUID(), ids)).toEqual({
        dataset: undefined,
        fields: [],
        documentIds: [],
      });
    });

    it("writes nothing, and does not fail, for a change that neither sets nor clears", async () => {
      const { metadata } = repositories();
      const { dataset, docs } = await seed();
      await metadata.writeValues(dataset.id, [
        { documentId: docs[0].id, replaceAll: false, set: [], clear: [] },
      ]);
      expect(await metadata.valuesOf(docs[0].id)).toEqual([]);
    });

    it("writes several documents' values at once: replacing, setting, clearing, skipping what is not the dataset's", async () => {
      const { metadata, documents } = repositories();
      const { dataset, other, docs } = await seed();
      const stranger = aDocument(other.id);
      await documents.save(stranger);
      const [a, b, c] = ["a", "b", "c"].map((name, index) =>
        aMetadataField(dataset.id, { name, createdAt: index + 1 }),
      ) as [
        ReturnType<typeof aMetadataField>,
        ReturnType<typeof aMetadataField>,
        ReturnType<typeof aMetadataField>,
      ];
      const foreign = aMetadataField(other.id);
      for (const field of [a, b, c, foreign]) await metadata.createField(field);
      for (const document of docs)
        for (const field of [a, b]) await metadata.setValue(document.id, field.id, "old");
      await metadata.writeValues(dataset.id, [
        { documentId: docs[0].id, replaceAll: true, set: [[c.id, "new"]], clear: [] },
        {
          documentId: docs[1].id,
          replaceAll: false,
          set: [
            [b.id, "new"],
            [foreign.id, "x"],
          ],
          clear: [a.id],
        },
        { documentId: stranger.id, replaceAll: false, set: [[a.id, "x"]], clear: [] },
      ]);
      const values = async (id: string) =>
        (await metadata.valuesOf(id)).map((entry) => [entry.name, entry.value]);
      expect(await values(docs[0].id)).toEqual([["c", "new"]]);
      expect(await values(docs[1].id)).toEqual([["b", "new"]]);
      expect(await values(stranger.id)).toEqual([]);
      expect((await metadata.listFieldUsage(dataset.id)).map((field) => field.count)).toEqual([0, 1, 1]);
      await metadata.writeValues(dataset.id, [
        { documentId: docs[1].id, replaceAll: true, set: [], clear: [] },
      ]);
      expect(await values(docs[1].id)).toEqual([]);
    });
  });
}
