import { describe, expect, it } from "vitest";
import { aDataset, aDocument, aMember, aMetadataField, aTag, aWorkspace } from "../fixtures.js";
import { type OpenStore, useStore } from "./use-store.js";

/** More documents than a statement may hold one condition each for (SQLite's tree depth is 1,000). */
const MANY = 1_200;
/** More ids than a statement may take parameters (SQLite 32,766; PostgreSQL 65,535). */
const unknownIds = (count: number) => Array.from({ length: count }, (_, index) => `x${index}`);
const TOO_MANY_FOR_PARAMETERS = 70_000;

/** Requests set how many ids they send: every batch read and write takes any number of them. */
export function describeLargeBatchesContract(openStore: OpenStore): void {
  describe("Large batches contract", () => {
    const repositories = useStore(openStore);

    async function seedDataset(documentCount: number, over: (index: number) => object = () => ({})) {
      const { workspaces, datasets, documents } = repositories();
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      const member = aMember(workspace.id, { role: "owner" });
      await workspaces.saveMember(member);
      const dataset = aDataset(workspace.id);
      await datasets.save(dataset);
      const docs = Array.from({ length: documentCount }, (_, index) =>
        aDocument(dataset.id, { position: index + 1, ...over(index) }),
      );
      for (const document of docs) await documents.save(document);
      return { workspace, member, dataset, docs };
    }

    it("reads and updates the status of over a thousand documents, among more ids than parameters", async () => {
      const { documents, datasets } = repositories();
      const { workspace, dataset, docs } = await seedDataset(MANY, (index) =>
        index % 2 === 0 ? {} : { enabled: false, disabledAt: 1, archived: index % 3 === 0 },
      );
      const ids = [...unknownIds(TOO_MANY_FOR_PARAMETERS), ...docs.map(({ id }) => id)];
      const found = await documents.findForStatusUpdate(workspace.id, dataset.id, ids);
      expect(found.documents).toHaveLength(MANY);
      const disabled = found.documents.filter((document) => !document.enabled);
      const enable = { enabled: true, disabledAt: null, disabledBy: null, updatedAt: 9 };
      const changing = disabled.map(({ id }) => id);

      // One of them changed since it was read: nothing is written.
      const [first, ...rest] = found.documents as [(typeof found.documents)[0]];
      const stale = [{ ...first, isPaused: !first.isPaused }, ...rest];
      expect(await documents.updateStatus(dataset.id, { read: stale, changing, patch: enable })).toBe(false);
      expect((await datasets.findOverview(workspace.id, dataset.id))?.counts.availableDocuments).toBe(
        MANY / 2,
      );

      expect(
        await documents.updateStatus(dataset.id, { read: found.documents, changing, patch: enable }),
      ).toBe(true);
      const after = await documents.findManyInDataset(dataset.id, ids);
      expect(after).toHaveLength(MANY);
      expect(after.every((document) => document.enabled)).toBe(true);
      const archivedCount = docs.filter((document) => document.archived).length;
      expect(archivedCount).toBeGreaterThan(0);
      // Archived documents are not available, enabled or not: the display status follows each one.
      expect((await datasets.findOverview(workspace.id, dataset.id))?.counts.availableDocuments).toBe(
        MANY - archivedCount,
      );
    });

    it("writes and clears values of over a thousand documents, among more ids than parameters", async () => {
      const { metadata } = repositories();
      const { workspace, dataset, docs } = await seedDataset(MANY);
      const [a, b] = ["a", "b"].map((name, index) =>
        aMetadataField(dataset.id, { name, createdAt: index + 1 }),
      ) as [ReturnType<typeof aMetadataField>, ReturnType<typeof aMetadataField>];
      for (const field of [a, b]) await metadata.createField(field);
      const ids = [...unknownIds(TOO_MANY_FOR_PARAMETERS), ...docs.map(({ id }) => id)];
      const found = await metadata.findForValueWrite(workspace.id, dataset.id, ids);
      expect(found.documentIds.sort()).toEqual(docs.map(({ id }) => id).sort());

      await metadata.writeValues(
        dataset.id,
        docs.map(({ id }, index) => ({
          documentId: id,
          replaceAll: false,
          set: [
            [a.id, `a${index}`],
            [b.id, `b${index}`],
          ],
          clear: [],
        })),
      );
      const counts = async () => (await metadata.listFieldUsage(dataset.id)).map((field) => field.count);
      expect(await counts()).toEqual([MANY, MANY]);
      const values = await metadata.valuesOfDocuments(docs.map(({ id }) => id));
      expect(values.get(docs[MANY - 1]?.id ?? "")?.map((entry) => entry.value)).toEqual([
        `a${MANY - 1}`,
        `b${MANY - 1}`,
      ]);

      // Half clear `a`; the other half keep only `b`, replacing all: `a` goes everywhere.
      await metadata.writeValues(
        dataset.id,
        docs.map(({ id }, index) =>
          index % 2 === 0
            ? { documentId: id, replaceAll: false, set: [], clear: [a.id] }
            : { documentId: id, replaceAll: true, set: [[b.id, "kept"]], clear: [] },
        ),
      );
      expect(await counts()).toEqual([0, MANY]);
      expect((await metadata.valuesOf(docs[1]?.id ?? "")).map((entry) => entry.value)).toEqual(["kept"]);
      expect((await metadata.valuesOf(docs[0]?.id ?? "")).map((entry) => entry.value)).toEqual(["b0"]);
    });

    it("replaces the values of over a thousand documents, each keeping its own set of fields", async () => {
      const { metadata } = repositories();
      const { dataset, docs } = await seedDataset(MANY);
      const fields = Array.from({ length: 11 }, (_, index) =>
        aMetadataField(dataset.id, { name: `f${index}`, createdAt: index + 1 }),
      );
      for (const field of fields) await metadata.createField(field);
      const all = (document: { id: string }) => ({
        documentId: document.id,
        replaceAll: false,
        set: fields.map((field) => [field.id, "x"] as const),
        clear: [],
      });
      await metadata.writeValues(dataset.id, docs.map(all));
      // Each document keeps the fields its index's bits name: over a thousand different sets.
      const keeps = (index: number) => fields.filter((_, bit) => (index >> bit) & 1);
      await metadata.writeValues(
        dataset.id,
        docs.map((document, index) => ({
          documentId: document.id,
          replaceAll: true,
          set: keeps(index).map((field) => [field.id, "kept"] as const),
          clear: [],
        })),
      );
      const expected = fields.map((_, bit) => docs.filter((_, index) => (index >> bit) & 1).length);
      expect((await metadata.listFieldUsage(dataset.id)).map((field) => field.count)).toEqual(expected);
      expect((await metadata.valuesOf(docs[5]?.id ?? "")).map((entry) => entry.name)).toEqual(["f0", "f2"]);
    });

    it("stores text with a lone surrogate through a list parameter as through any other parameter", async () => {
      const { metadata } = repositories();
      const { dataset, docs } = await seedDataset(2);
      const [listed, single] = docs as [(typeof docs)[0], (typeof docs)[0]];
      const field = aMetadataField(dataset.id);
      await metadata.createField(field);
      const text = "a\ud800b";
      await metadata.writeValues(dataset.id, [
        { documentId: listed.id, replaceAll: false, set: [[field.id, text]], clear: [] },
      ]);
      await metadata.setValue(single.id, field.id, text);
      const [stored] = await metadata.valuesOf(single.id);
      expect(stored?.value).toMatch(/^a.b$/u);
      expect((await metadata.valuesOf(listed.id))[0]?.value).toBe(stored?.value);
    });

    it("finds, binds and unbinds tags among more ids than parameters", async () => {
      const { workspaces, datasets, tags } = repositories();
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      const dataset = aDataset(workspace.id);
      await datasets.save(dataset);
      const made = Array.from({ length: 100 }, (_, index) => aTag(workspace.id, { name: `tag ${index}` }));
      for (const tag of made) await tags.save(tag);
      const ids = [...unknownIds(TOO_MANY_FOR_PARAMETERS), ...made.map(({ id }) => id)];
      expect(await tags.findByIds(ids)).toHaveLength(made.length);
      expect(
        await tags.bindToDataset({
          workspaceId: workspace.id,
          datasetId: dataset.id,
          tags: ids.map((tagId) => ({ tagId, bindingId: crypto.randomUUID() })),
          createdAt: 1_700_000_000,
        }),
      ).toBe(true);
      expect((await tags.boundTagIds(dataset.id)).sort()).toEqual(made.map(({ id }) => id).sort());
      expect(await tags.unbindFromDataset(workspace.id, dataset.id, ids)).toBe(true);
      expect(await tags.boundTagIds(dataset.id)).toEqual([]);

      await tags.bind(
        made.map((tag) => ({
          id: crypto.randomUUID(),
          workspaceId: workspace.id,
          tagId: tag.id,
          targetId: dataset.id,
          createdAt: 1_700_000_000,
        })),
      );
      expect((await tags.boundTagIds(dataset.id)).sort()).toEqual(made.map(({ id }) => id).sort());
      await tags.unbind(dataset.id, ids);
      expect(await tags.boundTagIds(dataset.id)).toEqual([]);
    });
  });
}
