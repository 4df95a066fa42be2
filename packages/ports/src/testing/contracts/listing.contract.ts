import { describe, expect, it } from "vitest";
import type { DocumentFilter } from "../../document-repository.js";
import {
  aChunk,
  aConversation,
  aDataset,
  aDocument,
  aMember,
  aMetadataField,
  anApp,
  anEndUser,
  anUploadFile,
  aTag,
  aVariable,
  aWorkspace,
} from "../fixtures.js";
import { type OpenStore, useStore } from "./use-store.js";

/** Pages, filters, overviews and the counts the store keeps: what the management lists read. */
export function describeListingContract(openStore: OpenStore): void {
  describe("Listing contract", () => {
    const repositories = useStore(openStore);

    async function seedWorkspace() {
      const { workspaces } = repositories();
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      const member = aMember(workspace.id, { name: "Ada", role: "owner" });
      await workspaces.saveMember(member);
      return { workspace, member };
    }

    it("finds a workspace's owner, and keeps at most one", async () => {
      const { workspaces } = repositories();
      const { workspace, member } = await seedWorkspace();
      await workspaces.saveMember(aMember(workspace.id, { name: "Bob" }));
      expect(await workspaces.findOwner(workspace.id)).toEqual(member);
      await expect(
        workspaces.saveMember(aMember(workspace.id, { name: "Eve", role: "owner" })),
      ).rejects.toThrow();
      const other = aWorkspace();
      await workspaces.save(other);
      expect(await workspaces.findOwner(other.id)).toBeUndefined();
    });

    it("keeps a dataset's counts in step with its documents", async () => {
      const { datasets, documents } = repositories();
      const { workspace, member } = await seedWorkspace();
      const dataset = aDataset(workspace.id, { createdBy: member.id, description: "All about it" });
      await datasets.save(dataset);
      const counts = async () => (await datasets.findOverview(workspace.id, dataset.id))?.counts;
      expect(await counts()).toEqual({ documents: 0, availableDocuments: 0, words: 0 });
      const available = aDocument(dataset.id, { wordCount: 100, position: 2 });
      const disabled = aDocument(dataset.id, {
        wordCount: 10,
        enabled: false,
        position: 1,
        docForm: "qa_model",
      });
      const indexing = aDocument(dataset.id, { wordCount: 1, indexingStatus: "indexing", position: 3 });
      for (const document of [available, disabled, indexing]) await documents.save(document);
      expect(await counts()).toEqual({ documents: 3, availableDocuments: 1, words: 111 });
      await documents.save({ ...disabled, enabled: true, wordCount: 20 });
      expect(await counts()).toEqual({ documents: 3, availableDocuments: 2, words: 121 });
      await documents.save({ ...available, archived: true });
      expect(await counts()).toEqual({ documents: 3, availableDocuments: 1, words: 121 });
      await documents.delete(dataset.id, disabled.id, { archived: false });
      expect(await counts()).toEqual({ documents: 2, availableDocuments: 0, words: 101 });
      const overview = await datasets.findOverview(workspace.id, dataset.id);
      expect(overview).toEqual({
        dataset,
        counts: { documents: 2, availableDocuments: 0, words: 101 },
        firstDocument: { dataSourceType: "upload_file", docForm: "text_model" },
        authorName: "Ada",
        tags: [],
        fields: [],
      });
      expect(await datasets.findOverview(aWorkspace().id, dataset.id)).toBeUndefined();
    });

    it("gives an overview's knowledge tags by name and its fields in creation order, in the page too", async () => {
      const { datasets, tags, metadata } = repositories();
      const { workspace } = await seedWorkspace();
      const [dataset, bare] = [
        aDataset(workspace.id, { createdAt: 2 }),
        aDataset(workspace.id, { createdAt: 1 }),
      ];
      for (const each of [dataset, bare]) await datasets.save(each);
      const [zebra, apple, bots] = [
        aTag(workspace.id, { name: "zebra" }),
        aTag(workspace.id, { name: "apple" }),
        aTag(workspace.id, { name: "bots", type: "app" }),
      ];
      for (const tag of [zebra, apple, bots]) await tags.create(tag);
      await tags.bind(
        [zebra, apple, bots].map((tag) => ({
          id: globalThis.crypto.randomUUID(),
          workspaceId: workspace.id,
          tagId: tag.id,
          targetId: dataset.id,
          createdAt: 1,
        })),
      );
      const [late, early] = [
        aMetadataField(dataset.id, { name: "late", createdAt: 20 }),
        aMetadataField(dataset.id, { name: "early", createdAt: 10 }),
      ];
      for (const field of [late, early]) await metadata.createField(field);
      expect(await datasets.findOverview(workspace.id, dataset.id)).toMatchObject({
        tags: [apple, zebra],
        fields: [early, late],
      });
      const { items, total } = await datasets.listPage(workspace.id, {}, 0, 10);
      expect(total).toBe(2);
      expect(items.map((item) => [item.dataset.id, item.tags, item.fields])).toEqual([
        [dataset.id, [apple, zebra], [early, late]],
        [bare.id, [], []],
      ]);
      expect(await datasets.listPage(workspace.id, {}, 5, 10)).toEqual({ items: [], total: 2 });
    });

    it("pages a workspace's datasets newest first, by keyword and by every tag asked", async () => {
      const { datasets, tags, workspaces } = repositories();
      const { workspace } = await seedWorkspace();
      const other = aWorkspace();
      await workspaces.save(other);
      const names = ["Alpha 100%", "beta_b", "ALPHA two", "Über", "gamma"];
      const made = names.map((name, index) => aDataset(workspace.id, { name, createdAt: 100 + index }));
      for (const dataset of [...made, aDataset(other.id, { name: "Alpha" })]) await datasets.save(dataset);
      const page = async (filter: { keyword?: string; tagIds?: string[] }, offset = 0, limit = 10) => {
        const result = await datasets.listPage(workspace.id, filter, offset, limit);
        return { names: result.items.map((item) => item.dataset.name), total: result.total };
      };
      expect(await page({})).toEqual({ names: [...names].reverse(), total: 5 });
      expect(await page({}, 1, 2)).toEqual({
        names: ["gamma", "Über"].slice(1).concat("ALPHA two"),
        total: 5,
      });
      expect(await page({ keyword: "alpha" })).toEqual({ names: ["ALPHA two", "Alpha 100%"], total: 2 });
      expect(await page({ keyword: "0%" })).toEqual({ names: ["Alpha 100%"], total: 1 });
      expect(await page({ keyword: "x_" })).toEqual({ names: [], total: 0 });
      expect(await page({ keyword: "_b" })).toEqual({ names: ["beta_b"], total: 1 });
      expect(await page({ keyword: "über" })).toEqual({ names: [], total: 0 });
      const [red, blue, bots] = [
        aTag(workspace.id, { name: "red" }),
        aTag(workspace.id, { name: "blue" }),
        aTag(workspace.id, { name: "bots", type: "app" }),
      ];
      for (const tag of [red, blue, bots]) await tags.create(tag);
      const bind = (tagId: string, targetId: string) => ({
        id: globalThis.crypto.randomUUID(),
        workspaceId: workspace.id,
        tagId,
        targetId,
        createdAt: 1,
      });
      await tags.bind([bind(red.id, made[0]!.id), bind(blue.id, made[0]!.id), bind(red.id, made[1]!.id)]);
      await tags.bind([bind(bots.id, made[1]!.id)]);
      expect(await page({ tagIds: [red.id] })).toEqual({ names: ["beta_b", "Alpha 100%"], total: 2 });
      expect(await page({ tagIds: [red.id, blue.id, red.id] })).toEqual({ names: ["Alpha 100%"], total: 1 });
      expect(await page({ tagIds: [bots.id] })).toEqual({ names: [], total: 0 });
      expect(await page({ tagIds: [red.id, "not-a-tag"] })).toEqual({ names: [], total: 0 });
    });

    it("sets whether built-in fields show, moving updatedAt only on a change", async () => {
      const { datasets } = repositories();
      const { workspace } = await seedWorkspace();
      const dataset = aDataset(workspace.id, { updatedAt: 5 });
      await datasets.save(dataset);
      expect(await datasets.setBuiltInFieldEnabled(dataset.id, false, 9)).toBe("unchanged");
      expect((await datasets.findInWorkspace(workspace.id, dataset.id))?.updatedAt).toBe(5);
      expect(await datasets.setBuiltInFieldEnabled(dataset.id, true, 9)).toBe("changed");
      expect(await datasets.findInWorkspace(workspace.id, dataset.id)).toMatchObject({
        builtInFieldEnabled: true,
        updatedAt: 9,
      });
      // Checked as it writes (`servedTo`): only while the dataset serves the workspace.
      expect(await datasets.setBuiltInFieldEnabled(dataset.id, false, 10, "another workspace")).toBe(
        "refused",
      );
      expect(await datasets.setBuiltInFieldEnabled("unknown", false, 10)).toBe("refused");
      await datasets.save({ ...dataset, builtInFieldEnabled: true, updatedAt: 9, enableApi: false });
      expect(await datasets.setBuiltInFieldEnabled(dataset.id, false, 10, workspace.id)).toBe("refused");
      expect(await datasets.setBuiltInFieldEnabled(dataset.id, true, 10, workspace.id)).toBe("refused");
      expect((await datasets.findInWorkspace(workspace.id, dataset.id))?.builtInFieldEnabled).toBe(true);
      await datasets.save({ ...dataset, builtInFieldEnabled: true, updatedAt: 9 });
      expect(await datasets.setBuiltInFieldEnabled(dataset.id, true, 10, workspace.id)).toBe("unchanged");
      expect(await datasets.setBuiltInFieldEnabled(dataset.id, false, 10, workspace.id)).toBe("changed");
      expect(await datasets.findInWorkspace(workspace.id, dataset.id)).toMatchObject({
        builtInFieldEnabled: false,
        updatedAt: 10,
      });
    });

    it("pages a dataset's documents newest first, by name and by display status, with what the list shows", async () => {
      const { datasets, documents, metadata } = repositories();
      const { workspace, member } = await seedWorkspace();
      const dataset = aDataset(workspace.id);
      await datasets.save(dataset);
      const file = anUploadFile(member.id);
      await documents.saveUploadFile(workspace.id, file);
      const made = [
        aDocument(dataset.id, {
          name: "intro.md",
          createdAt: 10,
          position: 1,
          uploadFileId: file.id,
          createdBy: member.id,
        }),
        aDocument(dataset.id, { name: "Intro 2.md", createdAt: 20, position: 2, enabled: false }),
        aDocument(dataset.id, { name: "notes.txt", createdAt: 20, position: 3, indexingStatus: "waiting" }),
        aDocument(dataset.id, { name: "100%.txt", createdAt: 5, position: 4, archived: true }),
      ];
      for (const document of made) await documents.save(document);
      await documents.saveChunks([
        aChunk(made[0]!.id, { hitCount: 3 }),
        aChunk(made[0]!.id, { hitCount: 4 }),
      ]);
      const page = async (filter: object, offset = 0, limit = 10) => {
        const result = await documents.listPage(dataset.id, filter, offset, limit);
        return { names: result.items.map((item) => item.document.name), total: result.total };
      };
      expect(await page({})).toEqual({
        names: ["notes.txt", "Intro 2.md", "intro.md", "100%.txt"],
        total: 4,
      });
      expect(await page({}, 2, 1)).toEqual({ names: ["intro.md"], total: 4 });
      expect(await page({}, 9, 1)).toEqual({ names: [], total: 4 });
      expect(await page({ keyword: "intro" }, 9, 1)).toEqual({ names: [], total: 2 });
      expect(await page({ keyword: "INTRO" })).toEqual({ names: ["Intro 2.md", "intro.md"], total: 2 });
      expect(await page({ keyword: "%" })).toEqual({ names: ["100%.txt"], total: 1 });
      expect(await page({ status: "available" })).toEqual({ names: ["intro.md"], total: 1 });
      expect(await page({ status: "disabled" })).toEqual({ names: ["Intro 2.md"], total: 1 });
      expect(await page({ status: "queuing" })).toEqual({ names: ["notes.txt"], total: 1 });
      expect(await page({ status: "archived", keyword: "100" })).toEqual({ names: ["100%.txt"], total: 1 });
      const [late, early] = [
        aMetadataField(dataset.id, { name: "late", createdAt: 20 }),
        aMetadataField(dataset.id, { name: "early", createdAt: 10 }),
      ];
      for (const field of [late, early]) await metadata.createField(field);
      await metadata.setValue(made[0]!.id, late.id, "2");
      await metadata.setValue(made[0]!.id, early.id, "1");
      const [listed] = (await documents.listPage(dataset.id, { keyword: "intro.md" }, 0, 1)).items;
      expect(listed).toEqual({
        document: made[0],
        uploadFile: file,
        hitCount: 7,
        creatorName: "Ada",
        values: [
          { id: early.id, name: "early", type: "string", value: "1" },
          { id: late.id, name: "late", type: "string", value: "2" },
        ],
      });
      expect((await documents.listPage(dataset.id, { keyword: "notes" }, 0, 1)).items[0]?.values).toEqual([]);
    });

    it("finds a keyword's every character as written, ASCII letters in either case, however it reads in SQL or a pattern", async () => {
      const { datasets, documents } = repositories();
      const { workspace } = await seedWorkspace();
      const dataset = aDataset(workspace.id);
      await datasets.save(dataset);
      const names = [
        "a.b (1) [x]",
        "axb (1) [x]",
        "$y^ {2} c|d",
        "back\\slash +f* ?g #h",
        "Été über",
        "tab\there",
      ];
      for (const [position, name] of names.entries())
        await documents.save(aDocument(dataset.id, { name, position, createdAt: position }));
      const found = async (keyword: string) =>
        (await documents.listPage(dataset.id, { keyword }, 0, 10)).items.map((item) => item.document.name);
      expect(await found("A.B")).toEqual(["a.b (1) [x]"]);
      expect(await found("(1) [X]")).toEqual(["axb (1) [x]", "a.b (1) [x]"]);
      expect(await found("$y^ {2} C|D")).toEqual(["$y^ {2} c|d"]);
      expect(await found("k\\s")).toEqual(["back\\slash +f* ?g #h"]);
      expect(await found("+F* ?G #")).toEqual(["back\\slash +f* ?g #h"]);
      expect(await found("b.*h")).toEqual([]);
      expect(await found("été")).toEqual([]);
      expect(await found("Été ÜBER")).toEqual([]);
      expect(await found("Été über")).toEqual(["Été über"]);
      expect(await found("B\tH")).toEqual(["tab\there"]);
      // A long keyword too (PostgreSQL finds it otherwise: a long pattern is slow to compile).
      const long = `${"Ab.".repeat(150)}(X)`;
      await documents.save(
        aDocument(dataset.id, { name: `[${long.toLowerCase()}]`, position: 9, createdAt: 9 }),
      );
      expect(await found(long.toUpperCase())).toEqual([`[${long.toLowerCase()}]`]);
      expect(await found(`${long}é`)).toEqual([]);
    });

    it("reads a page of documents with the workspace's dataset, the page listPage gives", async () => {
      const { datasets, documents, metadata } = repositories();
      const { workspace, member } = await seedWorkspace();
      const other = await seedWorkspace();
      const [dataset, empty] = [aDataset(workspace.id), aDataset(workspace.id)];
      for (const made of [dataset, empty]) await datasets.save(made);
      const file = anUploadFile(member.id);
      await documents.saveUploadFile(workspace.id, file);
      for (let position = 1; position <= 25; position += 1)
        await documents.save(
          aDocument(dataset.id, {
            name: `doc ${position}.md`,
            createdAt: position % 7,
            position,
            enabled: position % 3 !== 0,
            uploadFileId: position === 4 ? file.id : null,
            createdBy: member.id,
          }),
        );
      const field = aMetadataField(dataset.id, { name: "topic" });
      await metadata.createField(field);
      await metadata.setValue((await documents.listInDataset(dataset.id))[0]!.id, field.id, "x");
      const stored = await datasets.findInWorkspace(workspace.id, dataset.id);
      const shapes: [DocumentFilter, number, number][] = [
        [{}, 0, 20],
        [{}, 20, 20],
        [{}, 7, 10],
        [{}, 40, 20],
        [{}, 0, 101],
        [{ status: "disabled" }, 0, 20],
        [{ keyword: "doc 1" }, 2, 3],
        [{ keyword: "doc 1", status: "available" }, 50, 10],
      ];
      for (const [filter, offset, limit] of shapes) {
        const shape = JSON.stringify([filter, offset, limit]);
        expect(await documents.findPage(workspace.id, dataset.id, filter, offset, limit), shape).toEqual({
          dataset: stored,
          ...(await documents.listPage(dataset.id, filter, offset, limit)),
        });
      }
      expect(await documents.findPage(workspace.id, empty.id, {}, 0, 20)).toEqual({
        dataset: await datasets.findInWorkspace(workspace.id, empty.id),
        items: [],
        total: 0,
      });
      const none = { dataset: undefined, items: [], total: 0 };
      expect(await documents.findPage(other.workspace.id, dataset.id, {}, 0, 20)).toEqual(none);
      expect(await documents.findPage(workspace.id, crypto.randomUUID(), {}, 0, 20)).toEqual(none);
    });

    it("deletes a document with its chunks, values and file, unless another document uses the file", async () => {
      const { datasets, documents, metadata } = repositories();
      const { workspace, member } = await seedWorkspace();
      const dataset = aDataset(workspace.id);
      await datasets.save(dataset);
      const [shared, own] = [anUploadFile(member.id), anUploadFile(member.id)];
      for (const file of [shared, own]) await documents.saveUploadFile(workspace.id, file);
      const [first, second, third, archived] = [
        aDocument(dataset.id, { uploadFileId: shared.id, position: 1 }),
        aDocument(dataset.id, { uploadFileId: shared.id, position: 2 }),
        aDocument(dataset.id, { uploadFileId: own.id, position: 3 }),
        aDocument(dataset.id, { position: 4, archived: true, archivedAt: 5 }),
      ];
      for (const document of [first, second, third, archived]) await documents.save(document);
      await documents.saveChunks([aChunk(first.id), aChunk(third.id)]);
      const field = {
        id: globalThis.crypto.randomUUID(),
        datasetId: dataset.id,
        name: "a",
        type: "string" as const,
        createdAt: 1,
      };
      await metadata.createField(field);
      await metadata.setValue(first.id, field.id, "x");
      await metadata.setValue(third.id, field.id, "y");
      const other = aDataset(workspace.id);
      await datasets.save(other);
      expect(await documents.delete(other.id, first.id, { archived: false })).toBe(false);
      expect(await documents.delete(dataset.id, first.id, { archived: true })).toBe(false);
      // Checked as it deletes (`servedTo`): only while the dataset serves the workspace.
      expect(await documents.delete(dataset.id, third.id, { archived: false }, "another workspace")).toBe(
        false,
      );
      await datasets.save({ ...dataset, enableApi: false });
      expect(await documents.delete(dataset.id, third.id, { archived: false }, workspace.id)).toBe(false);
      await datasets.save(dataset);
      expect(await documents.findInDataset(dataset.id, first.id)).toEqual(first);
      expect(await documents.findInDataset(dataset.id, third.id)).toEqual(third);
      expect(await documents.delete(dataset.id, first.id, { archived: false })).toBe(true);
      expect(await documents.delete(dataset.id, third.id, { archived: false }, workspace.id)).toBe(true);
      expect(await documents.delete(dataset.id, third.id, { archived: false })).toBe(false);
      expect(await documents.findInDataset(dataset.id, first.id)).toBeUndefined();
      expect(await documents.listChunks(first.id)).toEqual([]);
      expect(await metadata.valuesOf(third.id)).toEqual([]);
      expect((await metadata.listFieldUsage(dataset.id))[0]?.count).toBe(0);
      expect(await documents.findUploadFile(shared.id)).toEqual(shared);
      expect(await documents.findUploadFile(own.id)).toBeUndefined();
      expect(await documents.findInDataset(dataset.id, second.id)).toEqual(second);
      expect(await documents.delete(dataset.id, archived.id, { archived: false })).toBe(false);
      expect(await documents.delete(dataset.id, archived.id, { archived: true })).toBe(true);
      expect(await documents.countInDataset(dataset.id)).toBe(1);
      expect(await documents.findManyInDataset(dataset.id, [second.id, first.id, second.id])).toEqual([
        second,
      ]);
    });

    it("reads a status update's dataset, documents and owner, and writes it only while the documents are as read", async () => {
      const { datasets, documents } = repositories();
      const { workspace, member } = await seedWorkspace();
      const dataset = aDataset(workspace.id);
      const other = aDataset(workspace.id);
      for (const each of [dataset, other]) await datasets.save(each);
      const [on, off, foreign] = [
        aDocument(dataset.id, { position: 1, updatedAt: 1 }),
        aDocument(dataset.id, { position: 2, enabled: false, disabledAt: 1, updatedAt: 1 }),
        aDocument(other.id, { enabled: false }),
      ];
      for (const document of [on, off, foreign]) await documents.save(document);
      const ids = [off.id, foreign.id, crypto.randomUUID(), on.id, off.id];
      const found = await documents.findForStatusUpdate(workspace.id, dataset.id, ids);
      expect(found.dataset).toEqual(dataset);
      expect(found.ownerId).toBe(member.id);
      expect(found.documents.sort((a, b) => a.position - b.position)).toEqual([on, off]);
      expect(await documents.findForStatusUpdate(workspace.id, dataset.id, [])).toEqual({
        dataset,
        documents: [],
        ownerId: member.id,
      });
      expect(await documents.findForStatusUpdate(crypto.randomUUID(), dataset.id, ids)).toEqual({
        dataset: undefined,
        documents: [],
        ownerId: null,
      });

      const enable = { enabled: true, disabledAt: null, disabledBy: null, updatedAt: 9 };
      // `off` changed since it was read: nothing is written, `foreign` included.
      const stale = { ...off, enabled: true };
      expect(
        await documents.updateStatus(dataset.id, { read: [on, stale], changing: [stale.id], patch: enable }),
      ).toBe(false);
      expect(await documents.findInDataset(dataset.id, off.id)).toEqual(off);
      const counts = async () => (await datasets.findOverview(workspace.id, dataset.id))?.counts;
      expect((await counts())?.availableDocuments).toBe(1);
      expect(
        await documents.updateStatus(dataset.id, {
          read: [on, off],
          changing: [off.id, foreign.id],
          patch: enable,
        }),
      ).toBe(true);
      expect(await documents.findInDataset(dataset.id, off.id)).toEqual({ ...off, ...enable });
      expect(await documents.findInDataset(dataset.id, on.id)).toEqual(on);
      expect(await documents.findInDataset(other.id, foreign.id)).toEqual(foreign);
      expect((await counts())?.availableDocuments).toBe(2);
      const archive = { archived: true, archivedAt: 10, archivedBy: member.id, updatedAt: 10 };
      // Read as it was before the last write: refused.
      expect(
        await documents.updateStatus(dataset.id, { read: [off], changing: [off.id], patch: archive }),
      ).toBe(false);
      const current = { ...off, ...enable };
      expect(
        await documents.updateStatus(dataset.id, { read: [current], changing: [off.id], patch: archive }),
      ).toBe(true);
      expect(await documents.findInDataset(dataset.id, off.id)).toEqual({ ...current, ...archive });
      expect((await counts())?.availableDocuments).toBe(1);
    });

    /** An app's end user's conversation with four variables, two of them made in the same second. */
    async function seedVariables() {
      const { workspaces, apps, endUsers, conversations } = repositories();
      const { workspace } = await seedWorkspace();
      await workspaces.save(workspace);
      const app = anApp(workspace.id);
      await apps.save(app);
      const endUser = anEndUser(app.id);
      await endUsers.save(endUser);
      const conversation = aConversation(app.id, endUser.id);
      await conversations.save(conversation);
      const made = [
        aVariable(conversation.id, { name: "exp_date", createdAt: 1 }),
        aVariable(conversation.id, { name: "Topic", createdAt: 2 }),
        aVariable(conversation.id, { name: "topic_b", createdAt: 2 }),
        aVariable(conversation.id, { name: "mood", createdAt: 3 }),
      ];
      for (const variable of made) await conversations.saveVariable(variable);
      return { workspace, app, endUser, conversation, made };
    }

    it("pages a conversation's variables oldest first after a cursor, by name", async () => {
      const { conversations } = repositories();
      const { conversation, made } = await seedVariables();
      const names = async (options: Parameters<typeof conversations.listVariablesPage>[1]) =>
        (await conversations.listVariablesPage(conversation.id, options)).map((variable) => variable.name);
      const tied = [made[1]!, made[2]!].sort((a, b) => (a.id < b.id ? -1 : 1));
      expect(await names({ limit: 10 })).toEqual([
        "exp_date",
        ...tied.map((variable) => variable.name),
        "mood",
      ]);
      expect(await names({ limit: 2 })).toEqual(["exp_date", tied[0]!.name]);
      expect(await names({ limit: 10, after: { createdAt: tied[0]!.createdAt, id: tied[0]!.id } })).toEqual([
        tied[1]!.name,
        "mood",
      ]);
      expect(await names({ limit: 10, nameContains: "TOPIC" })).toEqual(
        tied.map((variable) => variable.name),
      );
      expect(await names({ limit: 10, nameContains: "_" })).toEqual(["exp_date", "topic_b"]);
    });

    it("reads a page of variables together with what its request checks", async () => {
      const { apps, conversations } = repositories();
      const { workspace, app, endUser, conversation, made } = await seedVariables();
      const other = anApp(workspace.id);
      await apps.save(other);
      const empty = aConversation(app.id, endUser.id, { isDeleted: true });
      const elsewhere = aConversation(other.id, endUser.id);
      for (const each of [empty, elsewhere]) await conversations.save(each);
      // The same ids in another conversation stay out of this one's pages, and one of its own is
      // no place to start this one's.
      for (const variable of made)
        await conversations.saveVariable({ ...variable, conversationId: elsewhere.id });
      const notHere = aVariable(elsewhere.id, { name: "elsewhere", createdAt: 2 });
      await conversations.saveVariable(notHere);
      const [, tiedFirst, tiedSecond] = [
        made[0]!,
        ...[made[1]!, made[2]!].sort((a, b) => (a.id < b.id ? -1 : 1)),
      ];
      const read = (
        options: { afterId: string | null; limit: number; nameContains?: string },
        session: string | null = endUser.sessionId,
        conversationId = conversation.id,
        appId = app.id,
      ) => conversations.findVariablesPage(appId, session, conversationId, options);

      expect(await read({ afterId: null, limit: 10 })).toEqual({
        conversation,
        sessionUserId: endUser.id,
        afterFound: false,
        variables: [made[0], tiedFirst, tiedSecond, made[3]],
      });
      expect((await read({ afterId: null, limit: 2 })).variables).toEqual([made[0], tiedFirst]);
      expect(await read({ afterId: tiedFirst!.id, limit: 10 })).toMatchObject({
        afterFound: true,
        variables: [tiedSecond, made[3]],
      });
      expect((await read({ afterId: null, limit: 10, nameContains: "TOPIC" })).variables).toEqual([
        tiedFirst,
        tiedSecond,
      ]);
      expect((await read({ afterId: made[0]!.id, limit: 1, nameContains: "_" })).variables).toEqual([
        made[2],
      ]);
      // Each shape gives what listVariablesPage gives.
      for (const [afterId, nameContains] of [
        [null, undefined],
        [tiedFirst!.id, undefined],
        [null, "o"],
        [made[0]!.id, "o"],
      ] as const) {
        const after = made.find((variable) => variable.id === afterId);
        expect((await read({ afterId, limit: 3, nameContains })).variables).toEqual(
          await conversations.listVariablesPage(conversation.id, {
            after: after && { createdAt: after.createdAt, id: after.id },
            limit: 3,
            nameContains,
          }),
        );
      }
      for (const afterId of [crypto.randomUUID(), notHere.id]) {
        expect(await read({ afterId, limit: 10 })).toEqual({
          conversation,
          sessionUserId: endUser.id,
          afterFound: false,
          variables: [],
        });
      }
      // After the last variable: found, and nothing after it.
      expect(await read({ afterId: made[3]!.id, limit: 10 })).toEqual({
        conversation,
        sessionUserId: endUser.id,
        afterFound: true,
        variables: [],
      });
      expect(await read({ afterId: null, limit: 10, nameContains: "nothing like it" })).toEqual({
        conversation,
        sessionUserId: endUser.id,
        afterFound: false,
        variables: [],
      });
      expect(await read({ afterId: null, limit: 10 }, "nobody")).toMatchObject({ sessionUserId: undefined });
      expect(await read({ afterId: null, limit: 10 }, null)).toMatchObject({ sessionUserId: undefined });
      expect(await read({ afterId: null, limit: 10 }, endUser.sessionId, empty.id)).toEqual({
        conversation: empty,
        sessionUserId: endUser.id,
        afterFound: false,
        variables: [],
      });
      expect(
        await read({ afterId: made[0]!.id, limit: 10 }, endUser.sessionId, conversation.id, other.id),
      ).toEqual({
        afterFound: false,
        variables: [],
      });
    });
  });
}
