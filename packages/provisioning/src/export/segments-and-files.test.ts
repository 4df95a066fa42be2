import type { ChildChunk, Segment } from "@service-api/domain";
import type { Repositories, Store } from "@service-api/ports";
import { aChildChunk, aSegment } from "@service-api/ports/testing";
import { describe, expect, it, onTestFinished } from "vitest";
import type { ImportFileInput } from "../format/import-file-schema.js";
import { InvalidImportError } from "../format/issues.js";
import { createProvisioningWorld, STORES } from "../test-world.test-support.js";
import { ExportData } from "./export-data.js";

const id = (suffix: number) => `5c8d2e4f-1a3b-4c5d-9e6f-${String(suffix).padStart(12, "0")}`;
const T = 1_767_225_600;
const IDS = {
  workspace: id(1),
  member: id(2),
  dataset: id(3),
  notes: id(10),
  notesFile: id(11),
  tree: id(20),
};
/** A file no text decoder reads back as it was: a lone continuation byte, 0xff, a NUL, a bad sequence. */
const BYTES = new Uint8Array([0x80, 0xff, 0xfe, 0x00, 0x41, 0xc3, 0x28, 0xe2, 0x82, 0x0a, 0xf0, 0x9f, 0x98]);

/** A dataset of a document by file (no segments yet) and a hierarchical document, as imported. */
const base = (): ImportFileInput => ({
  version: 1,
  workspaces: [
    {
      id: IDS.workspace,
      name: "Knowledge",
      members: [{ id: IDS.member, name: "Owner" }],
      datasets: [
        {
          id: IDS.dataset,
          name: "Handbook",
          documents: [
            {
              id: IDS.notes,
              name: "notes.bin",
              created_at: T,
              upload_file: {
                id: IDS.notesFile,
                name: "notes.bin",
                size: BYTES.length,
                extension: "bin",
                mime_type: "application/octet-stream",
              },
            },
            { id: IDS.tree, name: "tree.md", doc_form: "hierarchical_model", created_at: T + 1 },
          ],
        },
      ],
    },
  ],
});

/** A segment as indexing writes it, its word count Dify's (content and answer, in code points). */
const segment = (documentId: string, position: number, over: Partial<Segment>): Segment => {
  const written = aSegment(documentId, position, over);
  const answer = written.answer === null ? 0 : [...written.answer].length;
  return { ...written, wordCount: [...written.content].length + answer };
};

const child = (parent: Segment, position: number, over: Partial<ChildChunk> = {}): ChildChunk => {
  const written = aChildChunk(parent, position, over);
  return { ...written, wordCount: [...written.content].length };
};

/** Publishes a version of the document's segments, as its indexing job does when it finishes. */
async function publish(
  repositories: Repositories,
  documentId: string,
  segments: Segment[],
  children: ChildChunk[],
) {
  const { documents, jobs } = repositories;
  const document = (await documents.findInDataset(IDS.dataset, documentId))!;
  const jobId = globalThis.crypto.randomUUID();
  await documents.queueForIndexing(document, jobId);
  await jobs.enqueue({ id: jobId, kind: "index_document", subjectId: documentId, runAfter: 0, createdAt: 0 });
  expect(await jobs.claim(["index_document"], "indexer", 1, 1_000_000)).toMatchObject({ id: jobId });
  const fence = { jobId, holder: "indexer" };
  expect(await repositories.segments.publish(documentId, fence, segments, children, {}, [])).toBe(true);
}

/** The export as `service-api export` writes it, a document per page. */
async function exported(store: Store): Promise<string> {
  let text = "";
  await new ExportData(store, { documentsPerRead: 1 }).writeTo(async (piece) => {
    text += piece;
  });
  return text;
}

async function worldOn(openStore: (typeof STORES)[number][1]) {
  const store = await openStore();
  onTestFinished(() => store.close());
  return createProvisioningWorld(store);
}

describe.each(STORES)("ImportData and ExportData of segments and files' bytes (%s)", (_store, openStore) => {
  it("exports every field of segments and child chunks and a file's bytes, and imports them back: the second export is the first, byte for byte", async () => {
    const first = await worldOn(openStore);
    await first.importData.execute(base());
    const { repositories } = first.store;
    await repositories.files.put(IDS.notesFile, BYTES);
    const notes = [
      segment(IDS.notes, 1, { content: "Pair the widget.", keywords: ["widget", "pairing"], hitCount: 3 }),
      segment(IDS.notes, 2, {
        content: "Old advice",
        answer: "Ignore it.",
        enabled: false,
        disabledAt: T + 50,
        disabledBy: IDS.member,
        updatedBy: IDS.member,
        keywords: [],
      }),
      segment(IDS.notes, 3, { status: "error", error: "failed", completedAt: null, indexNodeId: null }),
    ];
    await publish(repositories, IDS.notes, notes, []);
    const tree = [
      segment(IDS.tree, 1, { content: "Parent one" }),
      segment(IDS.tree, 2, { content: "Parent two" }),
    ];
    const children = [
      child(tree[0]!, 1),
      child(tree[0]!, 2, {
        type: "customized",
        content: "Edited by hand",
        updatedBy: IDS.member,
        updatedAt: T + 9,
      }),
      child(tree[1]!, 1, { createdBy: null, indexNodeHash: null }),
    ];
    await publish(repositories, IDS.tree, tree, children);

    const text = await exported(first.store);
    const [written] = JSON.parse(text).workspaces[0].datasets[0].documents;
    expect(written.upload_file.content_base64).toBe(Buffer.from(BYTES).toString("base64"));
    expect(written.segments[1]).toMatchObject({
      answer: "Ignore it.",
      enabled: false,
      disabled_at: T + 50,
      disabled_by: IDS.member,
    });
    expect(written.segments[0]).not.toHaveProperty("word_count");

    const second = await worldOn(openStore);
    await second.importData.execute(JSON.parse(text));
    expect(await exported(second.store)).toBe(text);
    expect(await second.store.repositories.files.get(IDS.notesFile)).toEqual(BYTES);
    const documentIds = [IDS.notes, IDS.tree];
    expect(await second.store.repositories.segments.listOfDocuments(documentIds)).toEqual(
      new Map([
        [IDS.notes, { segments: notes, children: [] }],
        [IDS.tree, { segments: tree, children }],
      ]),
    );
    // Imported again over itself, nothing changes either.
    await second.importData.execute(JSON.parse(text));
    expect(await exported(second.store)).toBe(text);
  });

  it("gives a segment and a child chunk the file leaves fields out of what an imported segment always had", async () => {
    const { importData, store } = await worldOn(openStore);
    const file = base();
    const document = file.workspaces[0]!.datasets![0]!.documents![1]!;
    document.segments = [{ content: "héllo 👋", answer: "ça", child_chunks: [{ content: "hé" }] }];
    await importData.execute(file);
    const { segments, children } = (await store.repositories.segments.listOfDocuments([IDS.tree])).get(
      IDS.tree,
    )!;
    expect(segments).toEqual([
      expect.objectContaining({
        position: 1,
        wordCount: 9,
        hitCount: 0,
        tokens: 0,
        keywords: [],
        enabled: true,
        disabledAt: null,
        status: "completed",
        createdBy: null,
        createdAt: null,
        completedAt: null,
        indexNodeId: null,
      }),
    ]);
    expect(children).toEqual([
      expect.objectContaining({
        segmentId: segments[0]!.id,
        position: 1,
        wordCount: 2,
        type: "automatic",
        createdAt: T + 1,
        updatedAt: T + 1,
        createdBy: null,
      }),
    ]);
    expect((await store.repositories.documents.findInDataset(IDS.dataset, IDS.tree))?.wordCount).toBe(9);
  });

  const badBytes: [string, string, RegExp][] = [
    ["text that is not base64", "gICA!", /must be base64/],
    ["base64 without its padding", "gICAgA", /must be base64/],
    ["bytes more than its size", "gICAgA==", /holds 4 bytes where size is 3/],
    ["bytes fewer than its size", "gA==", /holds 1 byte where size is 3/],
  ];
  it.each(badBytes)(
    "refuses a file's content_base64 of %s at its path, and writes nothing",
    async (_kind, content, message) => {
      const { importData, exportData, store } = await worldOn(openStore);
      const before = await exportData.execute();
      const file = base();
      const [notes, tree] = file.workspaces[0]!.datasets![0]!.documents!;
      notes!.upload_file!.content_base64 = Buffer.from(BYTES).toString("base64");
      tree!.upload_file = {
        id: id(21),
        name: "tree.md",
        size: 3,
        extension: "md",
        mime_type: "text/markdown",
      };
      tree!.upload_file.content_base64 = content;
      const failure = await importData.execute(file).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(InvalidImportError);
      expect((failure as InvalidImportError).issues).toEqual([
        {
          path: "workspaces[0].datasets[0].documents[1].upload_file.content_base64",
          message: expect.stringMatching(message),
        },
      ]);
      expect(await exportData.execute()).toEqual(before);
      expect(await store.repositories.files.get(IDS.notesFile)).toBeUndefined();
    },
  );

  it("refuses a child chunk whose id another document's holds, naming where, and writes nothing", async () => {
    const { importData, exportData } = await worldOn(openStore);
    const file = base();
    const dataset = file.workspaces[0]!.datasets![0]!;
    const [notes, tree] = dataset.documents!;
    const held = id(30);
    tree!.segments = [{ content: "Parent", child_chunks: [{ id: held, content: "Child" }] }];
    await importData.execute(file);
    const before = await exportData.execute();
    // The tree left as stored; the notes given a child chunk of the tree's id.
    dataset.documents = [notes!];
    notes!.segments = [
      { content: "Elsewhere", child_chunks: [{ content: "Mine" }, { id: held, content: "Moved" }] },
    ];
    const failure = await importData.execute(file).catch((error: unknown) => error);
    expect((failure as InvalidImportError).issues).toEqual([
      {
        path: "workspaces[0].datasets[0].documents[0].segments[0].child_chunks[1]",
        message: expect.stringMatching(/another document's child chunk/),
      },
    ]);
    expect(await exportData.execute()).toEqual(before);
  });
});
