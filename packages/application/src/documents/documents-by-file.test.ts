import {
  BlockedFileExtensionError,
  FilenameNotExistsError,
  FileTooLargeError,
  NoFileUploadedError,
  NotFoundError,
  type SentFile,
  TooManyFilesError,
  UnsupportedFileTypeError,
} from "@service-api/domain";
import { aMember, aWorkspace } from "@service-api/ports/testing";
import { describe, expect, it } from "vitest";
import { CreateDataset } from "../datasets/create-dataset.js";
import { IndexDocument } from "../jobs/index-document.js";
import { RunNextJob } from "../jobs/run-next-job.js";
import { InProcessTextPipeline } from "../test-support/in-process-pipeline.test-support.js";
import { createWorld } from "../test-support/world.js";
import { CreateDocumentByFile } from "./create-document-by-file.js";
import { CreateDocumentByText } from "./create-document-by-text.js";
import { UpdateDocumentByFile } from "./update-document-by-file.js";
import { SOURCE_OR_RULE_REQUIRED } from "./update-document-by-text.js";

const LIMITS = {
  maxSegmentationLength: 4000,
  uploads: { accepted: ["txt", "md", "pdf"], blocked: ["exe"], maxBytes: 64 },
};
const AUTOMATIC = { mode: "automatic" };
const file = (name: string, text = "Some text.", mimeType?: string): SentFile => ({
  name,
  mimeType,
  bytes: new TextEncoder().encode(text),
});

async function aKnowledgeBase(indexingTechnique: "economy" | null = "economy") {
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
  ).execute({ workspaceId: workspace.id, name: "Docs", indexingTechnique });
  const create = new CreateDocumentByFile(world.store, world.ids, world.clock, LIMITS);
  const update = new UpdateDocumentByFile(world.store, world.ids, world.clock, LIMITS);
  const byText = new CreateDocumentByText(world.store, world.ids, world.clock, LIMITS);
  const worker = new RunNextJob(
    world.jobs,
    [new IndexDocument(world.store.repositories, new InProcessTextPipeline(), world.ids, world.clock)],
    world.clock,
    { workerId: "worker", leaseMs: 30_000, retryMs: 1_000 },
  );
  const scope = { workspaceId: workspace.id, datasetId: dataset.id };
  return { world, owner, dataset, create, update, byText, worker, scope };
}

/** Every document and upload the dataset holds: what a refused request must leave as it was. */
async function holdings(world: ReturnType<typeof createWorld>, datasetId: string) {
  const documents = await world.documents.listInDataset(datasetId);
  const uploads = await Promise.all(
    documents.map(
      (document) => document.uploadFileId && world.documents.findUploadFile(document.uploadFileId),
    ),
  );
  return { documents, uploads };
}

describe("documents created by file", () => {
  it("stores the file as sent, named by it, and indexes it", async () => {
    const { world, owner, create, worker, scope } = await aKnowledgeBase();
    const queued = await create.execute({
      ...scope,
      files: [file("Guide.TXT", "Hello there.")],
      processRule: AUTOMATIC,
    });
    expect(queued.batch).toMatch(/^\d{20}$/);
    expect(queued.document).toMatchObject({
      name: "Guide.TXT",
      indexingStatus: "waiting",
      createdBy: owner.id,
    });
    const upload = await world.documents.findUploadFile(queued.document.uploadFileId!);
    expect(upload).toMatchObject({ name: "Guide.TXT", extension: "txt", mimeType: "text/plain", size: 12 });
    expect(new TextDecoder().decode(await world.files.get(upload!.id))).toBe("Hello there.");
    expect(await worker.execute()).toBe("done");
    const segments = await world.segments.listOfDocument(queued.document.id);
    expect(segments.map((segment) => segment.content)).toEqual(["Hello there."]);
  });

  it("keeps the type a file was sent with, and takes its extension's for a generic one", async () => {
    const { world, create, scope } = await aKnowledgeBase();
    const pdf = await create.execute({
      ...scope,
      files: [file("a.pdf", "%PDF", "application/octet-stream")],
      processRule: AUTOMATIC,
    });
    const md = await create.execute({
      ...scope,
      files: [file("b.md", "# B", "text/x-markdown")],
      processRule: AUTOMATIC,
    });
    expect((await world.documents.findUploadFile(pdf.document.uploadFileId!))?.mimeType).toBe(
      "application/pdf",
    );
    expect((await world.documents.findUploadFile(md.document.uploadFileId!))?.mimeType).toBe(
      "text/x-markdown",
    );
  });

  it("refuses in Dify's order, and writes nothing when it refuses", async () => {
    const { world, dataset, create, scope } = await aKnowledgeBase(null);
    const before = await holdings(world, dataset.id);
    const refusal = (input: Partial<Parameters<typeof create.execute>[0]>) =>
      create.execute({
        ...scope,
        files: [file("a.txt")],
        processRule: AUTOMATIC,
        indexingTechnique: "economy",
        ...input,
      });
    // The dataset first, then the technique, before anything of the file.
    await expect(refusal({ datasetId: globalThis.crypto.randomUUID(), files: [] })).rejects.toThrow(
      NotFoundError,
    );
    await expect(refusal({ files: [], indexingTechnique: undefined })).rejects.toThrow(
      "indexing_technique is required.",
    );
    await expect(refusal({ files: [] })).rejects.toThrow(NoFileUploadedError);
    await expect(refusal({ files: [file(""), file("b.txt")] })).rejects.toThrow(TooManyFilesError);
    await expect(refusal({ files: [file("")] })).rejects.toThrow(FilenameNotExistsError);
    await expect(refusal({ files: [file("dir/a.txt")] })).rejects.toThrow(
      "Filename contains invalid characters",
    );
    await expect(refusal({ files: [file("tool.exe")] })).rejects.toThrow(BlockedFileExtensionError);
    await expect(refusal({ files: [file("page.html")] })).rejects.toThrow(UnsupportedFileTypeError);
    await expect(refusal({ files: [file("a.txt", "x".repeat(65))] })).rejects.toThrow(FileTooLargeError);
    // The file passes; then the rule.
    await expect(refusal({ processRule: { mode: "nope" } })).rejects.toThrow();
    await expect(refusal({ processRule: undefined })).rejects.toThrow("process_rule is required.");
    await expect(refusal({ processRule: null })).rejects.toThrow("process_rule is required.");
    await expect(refusal({ docForm: "qa_model" })).rejects.toThrow("No Embedding Model available");
    expect(await holdings(world, dataset.id)).toEqual(before);
    expect(before.documents).toEqual([]);
  });

  it("takes the dataset's latest rule when the data names none, but not when it says null", async () => {
    const { create, scope } = await aKnowledgeBase();
    const custom = {
      mode: "custom",
      rules: { pre_processing_rules: [], segmentation: { separator: "###", max_tokens: 100 } },
    };
    const first = await create.execute({ ...scope, files: [file("one.txt")], processRule: custom });
    const second = await create.execute({ ...scope, files: [file("two.txt")] });
    expect(second.document.processRule.id).toBe(first.document.processRule.id);
    await expect(create.execute({ ...scope, files: [file("three.txt")], processRule: null })).rejects.toThrow(
      "process_rule is required.",
    );
  });

  it("defaults doc_form to the dataset's, and reuses an enabled document of the same name", async () => {
    const { create, scope } = await aKnowledgeBase();
    const rule = {
      mode: "hierarchical",
      rules: {
        pre_processing_rules: [],
        segmentation: { separator: "\n\n", max_tokens: 500 },
        parent_mode: "paragraph",
        subchunk_segmentation: { separator: "\n", max_tokens: 100 },
      },
    };
    const first = await create.execute({
      ...scope,
      files: [file("a.txt")],
      processRule: rule,
      docForm: "hierarchical_model",
    });
    const again = await create.execute({ ...scope, files: [file("a.txt", "New text.")] });
    expect(again.document.docForm).toBe("hierarchical_model");
    expect(again.reused).toBe(true);
    expect(again.document.id).toBe(first.document.id);
    expect(again.batch).not.toBe(first.batch);
    await expect(create.execute({ ...scope, files: [file("b.txt")], docForm: "text_model" })).rejects.toThrow(
      "doc_form is different from the dataset doc_form.",
    );
  });
});

describe("a create by file naming an original document", () => {
  it("replaces that document as an update would, after a create's own first checks", async () => {
    const { world, create, worker, scope } = await aKnowledgeBase();
    const first = await create.execute({
      ...scope,
      files: [file("old.txt", "Old.")],
      processRule: AUTOMATIC,
    });
    await worker.execute();
    const original = { originalDocumentId: first.document.id };
    await expect(create.execute({ ...scope, ...original, files: [] })).rejects.toThrow(NoFileUploadedError);
    await expect(create.execute({ ...scope, ...original, files: [file("x.html")] })).rejects.toThrow(
      UnsupportedFileTypeError,
    );
    const replaced = await create.execute({ ...scope, ...original, files: [file("new.txt", "New.")] });
    expect(replaced.document).toMatchObject({ id: first.document.id, name: "new.txt" });
    expect(replaced.batch).toBe(first.batch);
    expect(await world.documents.findUploadFile(first.document.uploadFileId!)).toBeUndefined();
  });
});

describe("documents updated by file", () => {
  it("replaces the document's file and name, keeps its batch, and deletes the old file", async () => {
    const { world, create, update, worker, scope } = await aKnowledgeBase();
    const created = await create.execute({
      ...scope,
      files: [file("old.txt", "Old text.")],
      processRule: AUTOMATIC,
    });
    expect(await worker.execute()).toBe("done");
    const oldFile = created.document.uploadFileId!;
    const updated = await update.execute({
      ...scope,
      documentId: created.document.id,
      files: [file("new.md", "# New")],
    });
    expect(updated.batch).toBe(created.batch);
    expect(updated.document).toMatchObject({
      id: created.document.id,
      name: "new.md",
      indexingStatus: "waiting",
    });
    expect(await world.documents.findUploadFile(oldFile)).toBeUndefined();
    expect(await world.documents.findUploadFile(updated.document.uploadFileId!)).toMatchObject({
      extension: "md",
      mimeType: "text/markdown",
    });
  });

  it("takes a rule alone, keeping the file", async () => {
    const { create, update, worker, scope } = await aKnowledgeBase();
    const created = await create.execute({ ...scope, files: [file("a.txt")], processRule: AUTOMATIC });
    await worker.execute();
    const custom = {
      mode: "custom",
      rules: { pre_processing_rules: [], segmentation: { separator: "\n", max_tokens: 80 } },
    };
    const updated = await update.execute({
      ...scope,
      documentId: created.document.id,
      files: [],
      processRule: custom,
    });
    expect(updated.document.uploadFileId).toBe(created.document.uploadFileId);
    expect(updated.document.processRule.mode).toBe("custom");
  });

  it("refuses in Dify's order: the file, then a file or a rule, then the document", async () => {
    const { world, dataset, create, update, worker, scope } = await aKnowledgeBase();
    const created = await create.execute({ ...scope, files: [file("a.txt")], processRule: AUTOMATIC });
    await worker.execute();
    const before = await holdings(world, dataset.id);
    const missing = globalThis.crypto.randomUUID();
    const refusal = (input: Partial<Parameters<typeof update.execute>[0]>) =>
      update.execute({ ...scope, documentId: created.document.id, files: [file("b.txt")], ...input });
    await expect(refusal({ documentId: missing, files: [file("a"), file("b")] })).rejects.toThrow(
      TooManyFilesError,
    );
    await expect(refusal({ documentId: missing, files: [file("x.html")] })).rejects.toThrow(
      UnsupportedFileTypeError,
    );
    await expect(refusal({ files: [] })).rejects.toThrow(SOURCE_OR_RULE_REQUIRED);
    // A file part not named `file` is no new file.
    await expect(refusal({ files: [{ ...file("b.txt"), field: "attachment" }] })).rejects.toThrow(
      SOURCE_OR_RULE_REQUIRED,
    );
    await expect(refusal({ documentId: missing })).rejects.toThrow("Document not found.");
    await world.documents.save({ ...before.documents[0]!, enabled: false });
    await expect(refusal({})).rejects.toThrow("Document is not available");
    await world.documents.save(before.documents[0]!);
    expect(await holdings(world, dataset.id)).toEqual(before);
  });
});
