import { createHash } from "node:crypto";
import { aMember, aWorkspace } from "@service-api/ports/testing";
import { describe, expect, it } from "vitest";
import { CreateDataset } from "../datasets/create-dataset.js";
import { IndexDocument } from "../jobs/index-document.js";
import { RunNextJob } from "../jobs/run-next-job.js";
import { InProcessTextPipeline } from "../test-support/in-process-pipeline.test-support.js";
import { createWorld } from "../test-support/world.js";
import { CreateDocumentByText } from "./create-document-by-text.js";
import { GetIndexingStatus } from "./get-indexing-status.js";
import { UpdateDocumentByText } from "./update-document-by-text.js";

const LIMITS = { maxSegmentationLength: 4000 };
const TEXT = "The first paragraph.\n\nThe second paragraph, a little longer than the first.";

async function aKnowledgeBase(over: { indexingTechnique?: "economy" | null } = {}) {
  const world = createWorld();
  const workspace = aWorkspace();
  await world.workspaces.save(workspace);
  const owner = aMember(workspace.id, { role: "owner", name: "Ada" });
  await world.workspaces.saveMember(owner);
  const { dataset } = await new CreateDataset(
    world.datasets,
    world.workspaces,
    world.ids,
    world.clock,
  ).execute({
    workspaceId: workspace.id,
    name: "Docs",
    indexingTechnique: over.indexingTechnique === undefined ? "economy" : over.indexingTechnique,
  });
  const pipeline = new InProcessTextPipeline();
  const create = new CreateDocumentByText(world.store, world.ids, world.clock, LIMITS);
  const update = new UpdateDocumentByText(world.store, world.ids, world.clock, LIMITS);
  const status = new GetIndexingStatus(world.datasets, world.documents);
  const worker = new RunNextJob(
    world.jobs,
    [new IndexDocument(world.store.repositories, pipeline, world.ids, world.clock)],
    world.clock,
    { workerId: "worker", leaseMs: 30_000, retryMs: 1_000 },
  );
  const scope = { workspaceId: workspace.id, datasetId: dataset.id };
  return { world, workspace, owner, dataset, pipeline, create, update, status, worker, scope };
}

describe("documents created by text", () => {
  it("queues a waiting document with a 20-digit batch, then indexes it into Dify's chunks", async () => {
    const { world, owner, dataset, create, status, worker, scope } = await aKnowledgeBase();
    const queued = await create.execute({ ...scope, name: "notes", text: TEXT });
    expect(queued.batch).toMatch(/^\d{20}$/);
    expect(queued.document).toMatchObject({
      name: "notes",
      position: 1,
      indexingStatus: "waiting",
      createdBy: owner.id,
      createdFrom: "api",
      docForm: "text_model",
      processRule: { mode: "automatic" },
      batch: queued.batch,
    });
    const file = await world.documents.findUploadFile(queued.document.uploadFileId!);
    expect(file).toMatchObject({
      name: "notes",
      extension: "txt",
      mimeType: "text/plain",
      size: TEXT.length,
    });
    expect(new TextDecoder().decode(await world.files.get(file!.id))).toBe(TEXT);
    expect(await world.segments.listOfDocument(queued.document.id)).toEqual([]);

    expect(await worker.execute()).toBe("done");
    // Automatic: pieces merged up to 500 characters, so the two paragraphs are one chunk.
    const segments = await world.segments.listOfDocument(queued.document.id);
    expect(segments.map((segment) => segment.content)).toEqual([TEXT]);
    expect(segments[0]).toMatchObject({
      position: 1,
      wordCount: TEXT.length,
      status: "completed",
      enabled: true,
      indexNodeHash: createHash("sha256").update(`${TEXT}None`).digest("hex"),
    });
    const indexed = await world.documents.findInDataset(dataset.id, queued.document.id);
    expect(indexed).toMatchObject({ indexingStatus: "completed", wordCount: TEXT.length, error: null });
    expect(indexed!.completedAt).not.toBeNull();
    const [shown] = await status.execute({ ...scope, batch: queued.batch });
    expect(shown).toMatchObject({ totalSegments: 1, completedSegments: 1 });
  });

  it("reuses an enabled document of the same name: same id and position, new batch, indexed again", async () => {
    const { world, dataset, create, worker, scope, status } = await aKnowledgeBase();
    const first = await create.execute({ ...scope, name: "notes", text: "old text" });
    await create.execute({ ...scope, name: "other", text: "another" });
    await worker.execute();
    await worker.execute();
    world.clock.advance(5);
    const again = await create.execute({ ...scope, name: "notes", text: "new text" });
    expect(again.reused).toBe(true);
    expect(again.document).toMatchObject({ id: first.document.id, position: 1, indexingStatus: "waiting" });
    expect(again.batch).not.toBe(first.batch);
    // Until the new version is published, the old segments stay.
    expect(
      (await world.segments.listOfDocument(first.document.id)).map((segment) => segment.content),
    ).toEqual(["old text"]);
    await worker.execute();
    expect(
      (await world.segments.listOfDocument(first.document.id)).map((segment) => segment.content),
    ).toEqual(["new text"]);
    expect((await world.documents.listInDataset(dataset.id)).map((document) => document.name)).toEqual([
      "notes",
      "other",
    ]);
    await expect(status.execute({ ...scope, batch: first.batch })).rejects.toMatchObject({
      code: "not_found",
      message: "Documents not found.",
    });
  });

  it("throws away a replaced version's indexing: the newest version wins", async () => {
    const { world, create, worker, scope } = await aKnowledgeBase();
    const first = await create.execute({ ...scope, name: "notes", text: "first version" });
    await worker.execute();
    await create.execute({ ...scope, name: "notes", text: "second version" });
    await create.execute({ ...scope, name: "notes", text: "third version" });
    // The two queued jobs run, oldest first: the stale one writes nothing.
    expect(await worker.execute()).toBe("done");
    expect(await worker.execute()).toBe("done");
    expect(
      (await world.segments.listOfDocument(first.document.id)).map((segment) => segment.content),
    ).toEqual(["third version"]);
  });

  it("ends a document whose file cannot be read, or whose reader fails, in error with why", async () => {
    const { world, dataset, create, pipeline, worker, scope } = await aKnowledgeBase();
    const broken = await create.execute({ ...scope, name: "broken", text: "unreadable" });
    await worker.execute();
    expect(await world.documents.findInDataset(dataset.id, broken.document.id)).toMatchObject({
      indexingStatus: "error",
      error: "The .txt file cannot be read.",
    });
    const crashed = await create.execute({ ...scope, name: "crashed", text: "fine text" });
    pipeline.failNext = "The file could not be read: its reader ran out of memory (over 512 MB).";
    expect(await worker.execute()).toBe("done");
    expect(await world.documents.findInDataset(dataset.id, crashed.document.id)).toMatchObject({
      indexingStatus: "error",
      error: "The file could not be read: its reader ran out of memory (over 512 MB).",
    });
  });

  it.each([
    [{ indexingTechnique: undefined }, "invalid_param", "indexing_technique is required."],
    [{ indexingTechnique: "high_quality" as const }, "provider_not_initialize", undefined],
  ])(
    "refuses a document for a dataset without a technique when the body gives %j",
    async (over, code, message) => {
      const { world, create, scope } = await aKnowledgeBase({ indexingTechnique: null });
      const before = world.contents();
      await expect(create.execute({ ...scope, name: "notes", text: TEXT, ...over })).rejects.toMatchObject({
        code,
        ...(message && { message }),
      });
      expect(world.contents()).toEqual(before);
    },
  );

  it.each([
    [{ name: "a\u0000b" }, "name: must not contain NUL characters or unpaired surrogates."],
    [{ name: "a\ud800" }, "name: must not contain NUL characters or unpaired surrogates."],
    [{ docLanguage: "en\u0000" }, "doc_language: must not contain NUL characters or unpaired surrogates."],
  ])(
    "refuses %j, which no store can hold, by create and by update, writing nothing",
    async (over, message) => {
      const { world, create, update, worker, scope } = await aKnowledgeBase();
      const queued = await create.execute({ ...scope, name: "notes", text: TEXT });
      await worker.execute();
      const before = world.contents();
      const refusal = { code: "invalid_param", message };
      await expect(create.execute({ ...scope, name: "notes", text: TEXT, ...over })).rejects.toMatchObject(
        refusal,
      );
      await expect(
        update.execute({ ...scope, documentId: queued.document.id, name: "notes", text: TEXT, ...over }),
      ).rejects.toMatchObject(refusal);
      expect(world.contents()).toEqual(before);
    },
  );

  it("sets a dataset's technique and latest rule from its first document", async () => {
    const { world, workspace, dataset, create, scope } = await aKnowledgeBase({ indexingTechnique: null });
    const rule = {
      mode: "custom",
      rules: {
        pre_processing_rules: [{ id: "remove_extra_spaces", enabled: true }],
        segmentation: { separator: "\n", max_tokens: 100 },
      },
    };
    const queued = await create.execute({
      ...scope,
      name: "notes",
      text: TEXT,
      indexingTechnique: "economy",
      processRule: rule,
    });
    const stored = await world.datasets.findInWorkspace(workspace.id, dataset.id);
    expect(stored).toMatchObject({ indexingTechnique: "economy", processRule: queued.document.processRule });
    expect(queued.document.processRule).toMatchObject({
      mode: "custom",
      rules: { segmentation: { max_tokens: 100, chunk_overlap: 0 } },
    });
    // No process_rule: the dataset's latest is reused, as is.
    const second = await create.execute({ ...scope, name: "more", text: TEXT });
    expect(second.document.processRule).toEqual(queued.document.processRule);
  });

  it.each([
    [{ processRule: { mode: "fast" } }, "Process rule mode is invalid"],
    [{ processRule: { mode: "custom" } }, "Process rule rules is required"],
    [
      {
        processRule: {
          mode: "custom",
          rules: { pre_processing_rules: [], segmentation: { separator: "\n", max_tokens: 20 } },
        },
      },
      "Custom segment length should be between 50 and 4000.",
    ],
    [
      { docForm: "qa_model" as const },
      "No Embedding Model available. Please configure a valid provider in the Settings -> Model Provider.",
    ],
    [
      { docForm: "hierarchical_model" as const },
      "hierarchical_model documents need a process rule with parent_mode.",
    ],
  ])("refuses %j, writing nothing", async (over, message) => {
    const { world, create, scope } = await aKnowledgeBase();
    const before = world.contents();
    await expect(create.execute({ ...scope, name: "notes", text: TEXT, ...over })).rejects.toMatchObject({
      message,
    });
    expect(world.contents()).toEqual(before);
  });

  it("refuses a doc_form other than the dataset's first document's", async () => {
    const { create, scope } = await aKnowledgeBase();
    await create.execute({ ...scope, name: "notes", text: TEXT });
    await expect(
      create.execute({
        ...scope,
        name: "tree",
        text: TEXT,
        docForm: "hierarchical_model",
        processRule: {
          mode: "hierarchical",
          rules: {
            pre_processing_rules: [],
            segmentation: { separator: "\n\n", max_tokens: 500 },
            subchunk_segmentation: { separator: "\n", max_tokens: 100 },
          },
        },
      }),
    ).rejects.toMatchObject({ message: "doc_form is different from the dataset doc_form." });
  });

  it("indexes a hierarchical document into parents with their children, completed", async () => {
    const { world, create, worker, scope } = await aKnowledgeBase();
    const queued = await create.execute({
      ...scope,
      name: "tree",
      text: "Parent one line one.\nParent one line two.\n\nParent two.",
      docForm: "hierarchical_model",
      processRule: {
        mode: "hierarchical",
        rules: {
          pre_processing_rules: [],
          segmentation: { separator: "\n\n", max_tokens: 500 },
          subchunk_segmentation: { separator: "\n", max_tokens: 100 },
        },
      },
    });
    await worker.execute();
    const segments = await world.segments.listOfDocument(queued.document.id);
    const children = await world.segments.listChildrenOfDocument(queued.document.id);
    expect(segments.map((segment) => [segment.content, segment.status, segment.enabled])).toEqual([
      ["Parent one line one.\nParent one line two.", "completed", true],
      ["Parent two.", "completed", true],
    ]);
    expect(children.map((child) => [child.content, child.position, child.type])).toEqual([
      ["Parent one line one.", 1, "automatic"],
      ["Parent one line two.", 2, "automatic"],
      ["Parent two.", 1, "automatic"],
    ]);
  });
});

describe("documents updated by text", () => {
  it("re-indexes an available document with its new text, answering its own batch", async () => {
    const { world, create, update, worker, scope } = await aKnowledgeBase();
    const queued = await create.execute({ ...scope, name: "notes", text: "old" });
    await worker.execute();
    const updated = await update.execute({
      ...scope,
      documentId: queued.document.id,
      name: "renamed",
      text: "new",
    });
    expect(updated).toMatchObject({
      batch: queued.batch,
      document: { name: "renamed", indexingStatus: "waiting" },
    });
    await worker.execute();
    expect(
      (await world.segments.listOfDocument(queued.document.id)).map((segment) => segment.content),
    ).toEqual(["new"]);
  });

  it("deletes the file of the version it replaces, as a reuse by create does", async () => {
    const { world, create, update, worker, scope } = await aKnowledgeBase();
    const first = await create.execute({ ...scope, name: "notes", text: "one" });
    const second = await create.execute({ ...scope, name: "notes", text: "two" });
    await worker.execute();
    await worker.execute();
    const third = await update.execute({
      ...scope,
      documentId: first.document.id,
      name: "notes",
      text: "three",
    });
    const files = [first, second, third].map((queued) => queued.document.uploadFileId!);
    expect(new Set(files).size).toBe(3);
    for (const gone of files.slice(0, 2)) {
      expect(await world.documents.findUploadFile(gone)).toBeUndefined();
      expect(await world.files.get(gone)).toBeUndefined();
    }
    expect(new TextDecoder().decode(await world.files.get(files[2]!))).toBe("three");
    // A rule-only update keeps its file.
    await worker.execute();
    await update.execute({ ...scope, documentId: first.document.id, processRule: { mode: "automatic" } });
    expect(await world.files.get(files[2]!)).toBeDefined();
  });

  it("gives a document from before batches a batch of its own, that indexing-status answers", async () => {
    const { world, create, update, status, worker, scope } = await aKnowledgeBase();
    const queued = await create.execute({ ...scope, name: "notes", text: "old" });
    await worker.execute();
    const stored = await world.documents.findInDataset(scope.datasetId, queued.document.id);
    await world.documents.save({ ...stored!, batch: null });
    const updated = await update.execute({
      ...scope,
      documentId: queued.document.id,
      name: "notes",
      text: "new",
    });
    expect(updated.batch).toMatch(/^\d{20}$/);
    expect(updated.batch).not.toBe(queued.batch);
    await worker.execute();
    const answer = await status.execute({ ...scope, batch: updated.batch });
    expect(answer).toMatchObject([{ document: { id: queued.document.id, indexingStatus: "completed" } }]);
  });

  it("refuses in Dify's order, writing nothing", async () => {
    const { world, create, update, scope } = await aKnowledgeBase();
    const queued = await create.execute({ ...scope, name: "notes", text: "old" });
    const documentId = queued.document.id;
    const before = world.contents();
    await expect(update.execute({ ...scope, documentId, text: "x" })).rejects.toMatchObject({
      message: "name is required when text is provided.",
    });
    await expect(update.execute({ ...scope, documentId, name: "only a name" })).rejects.toMatchObject({
      message: "Data source or Process rule is required",
    });
    await expect(
      update.execute({ ...scope, documentId: crypto.randomUUID(), name: "n", text: "x" }),
    ).rejects.toMatchObject({
      code: "not_found",
      message: "Document not found.",
    });
    // Still waiting: not available.
    await expect(update.execute({ ...scope, documentId, name: "n", text: "x" })).rejects.toMatchObject({
      code: "invalid_param",
      message: "Document is not available",
    });
    expect(world.contents()).toEqual(before);
  });
});
