import { describe, expect, it } from "vitest";
import { aChildChunk, aChunk, aDataset, aDocument, aSegment, aWorkspace } from "../fixtures.js";
import { type OpenStore, useStore } from "./use-store.js";

/** What indexing needs: documents queued with a job, steps fenced by it, versions published whole. */
export function describeDocumentIndexingContract(openStore: OpenStore): void {
  describe("DocumentRepository and SegmentRepository contract: indexing", () => {
    const repositories = useStore(openStore);

    /** The document queued with job `jobId`, whose lease the worker "w" holds. */
    async function queued(
      document: Parameters<ReturnType<typeof repositories>["documents"]["queueForIndexing"]>[0],
      jobId: string,
    ) {
      const { documents, jobs } = repositories();
      await documents.queueForIndexing(document, jobId);
      await jobs.enqueue({
        id: jobId,
        kind: "index_document",
        subjectId: document.id,
        runAfter: 0,
        createdAt: 0,
      });
      expect(await jobs.claim(["index_document"], "w", 1, 1_000_000)).toMatchObject({ id: jobId });
    }

    async function aDataset_() {
      const { workspaces, datasets } = repositories();
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      const dataset = aDataset(workspace.id);
      await datasets.save(dataset);
      return dataset;
    }

    it("queues a document with its job, the last job queued being the current one", async () => {
      const { documents } = repositories();
      const dataset = await aDataset_();
      const document = aDocument(dataset.id, {
        indexingStatus: "waiting",
        completedAt: null,
        batch: "1".repeat(20),
      });
      await documents.queueForIndexing(document, "job-1");
      expect(await documents.findInDataset(dataset.id, document.id)).toEqual(document);
      expect(await documents.isIndexingJob(document.id, "job-1")).toBe(true);
      await documents.queueForIndexing({ ...document, batch: "2".repeat(20) }, "job-2");
      expect(await documents.isIndexingJob(document.id, "job-1")).toBe(false);
      expect(await documents.isIndexingJob(document.id, "job-2")).toBe(true);
      expect(await documents.isIndexingJob(globalThis.crypto.randomUUID(), "job-2")).toBe(false);
      expect(await documents.findForIndexing(document.id, "job-1")).toBeUndefined();
      expect(await documents.findForIndexing(document.id, "job-2")).toEqual({
        ...document,
        batch: "2".repeat(20),
      });
    });

    it("records a step only for the current job, the display status following", async () => {
      const { documents, datasets } = repositories();
      const dataset = await aDataset_();
      const document = aDocument(dataset.id, { indexingStatus: "waiting", completedAt: null, wordCount: 0 });
      await queued(document, "job-1");
      expect(
        await documents.recordIndexingStep(
          document.id,
          { jobId: "job-0", holder: "w" },
          {
            indexingStatus: "parsing",
            processingStartedAt: 5,
          },
        ),
      ).toBe(false);
      expect(await documents.findInDataset(dataset.id, document.id)).toEqual(document);
      expect(
        await documents.recordIndexingStep(
          document.id,
          { jobId: "job-1", holder: "w" },
          {
            indexingStatus: "parsing",
            processingStartedAt: 5,
          },
        ),
      ).toBe(true);
      expect(await documents.findInDataset(dataset.id, document.id)).toEqual({
        ...document,
        indexingStatus: "parsing",
        processingStartedAt: 5,
      });
      const listed = await documents.listPage(dataset.id, { status: "indexing" }, 0, 10);
      expect(listed.items.map((item) => item.document.id)).toEqual([document.id]);
      expect((await datasets.findOverview(dataset.workspaceId, dataset.id))?.counts.availableDocuments).toBe(
        0,
      );
    });

    it("publishes a version's segments and children whole, the old ones gone, for the current job only", async () => {
      const { documents, segments } = repositories();
      const dataset = await aDataset_();
      const document = aDocument(dataset.id, { indexingStatus: "indexing", completedAt: null });
      await queued(document, "job-1");
      await documents.saveChunks([
        aChunk(document.id, { position: 1 }),
        aChunk(document.id, { position: 2 }),
      ]);
      const version = [aSegment(document.id, 2), aSegment(document.id, 1, { keywords: [], answer: "A" })];
      const children = [
        aChildChunk(version[0]!, 2),
        aChildChunk(version[0]!, 1),
        aChildChunk(version[1]!, 1),
      ];
      const finish = {
        indexingStatus: "completed" as const,
        completedAt: 7,
        indexingLatency: 1.5,
        wordCount: 40,
      };

      expect(
        await segments.publish(document.id, { jobId: "job-0", holder: "w" }, version, children, finish, []),
      ).toBe(false);
      expect(await documents.listChunks(document.id)).toHaveLength(2);
      expect(
        await segments.publish(document.id, { jobId: "job-1", holder: "w" }, version, children, finish, []),
      ).toBe(true);
      expect(await segments.listOfDocument(document.id)).toEqual([version[1], version[0]]);
      expect(await segments.listChildrenOfDocument(document.id)).toEqual([
        children[2],
        children[1],
        children[0],
      ]);
      expect(await documents.findInDataset(dataset.id, document.id)).toEqual({ ...document, ...finish });
      expect(await documents.chunkStats(document.id)).toEqual({ count: 2, hitCount: 0, characters: 40 });
    });

    it("lets only the worker holding the job's lease write: one that lost it to another writes nothing", async () => {
      const { documents, segments, jobs } = repositories();
      const dataset = await aDataset_();
      const document = aDocument(dataset.id, { indexingStatus: "waiting", completedAt: null });
      await queued(document, "job-1");
      // The lease lapsed and "v" took the job over.
      expect(await jobs.claim(["index_document"], "v", 2_000_000, 3_000_000)).toMatchObject({ id: "job-1" });
      const stale = { jobId: "job-1", holder: "w" };
      expect(await documents.recordIndexingStep(document.id, stale, { indexingStatus: "parsing" })).toBe(
        false,
      );
      expect(await segments.publish(document.id, stale, [aSegment(document.id, 1)], [], {}, [])).toBe(false);
      expect(await segments.listOfDocument(document.id)).toEqual([]);
      expect(
        await documents.recordIndexingStep(
          document.id,
          { jobId: "job-1", holder: "v" },
          { indexingStatus: "parsing" },
        ),
      ).toBe(true);
    });

    it("deletes an uploaded file only once no document names it", async () => {
      const { documents } = repositories();
      const dataset = await aDataset_();
      const file = {
        id: globalThis.crypto.randomUUID(),
        name: "a.txt",
        size: 1,
        extension: "txt",
        mimeType: "text/plain",
        createdBy: "m",
        createdAt: 1,
      };
      await documents.saveUploadFile(dataset.workspaceId, file);
      const document = aDocument(dataset.id, { uploadFileId: file.id });
      await documents.save(document);
      expect(await documents.deleteUnusedUploadFile(file.id)).toBe(false);
      await documents.save({ ...document, uploadFileId: null });
      expect(await documents.deleteUnusedUploadFile(file.id)).toBe(true);
      expect(await documents.findUploadFile(file.id)).toBeUndefined();
      expect(await documents.deleteUnusedUploadFile(file.id)).toBe(false);
    });

    it("publishes nothing for a document deleted while it indexed", async () => {
      const { documents, segments } = repositories();
      const dataset = await aDataset_();
      const document = aDocument(dataset.id, { indexingStatus: "indexing", completedAt: null });
      await queued(document, "job-1");
      await documents.delete(dataset.id, document.id, { archived: false });
      expect(
        await segments.publish(
          document.id,
          { jobId: "job-1", holder: "w" },
          [aSegment(document.id, 1)],
          [],
          {},
          [],
        ),
      ).toBe(false);
      expect(await segments.listOfDocument(document.id)).toEqual([]);
    });

    it("shows chunks stored before as completed, enabled segments, counted as completed in their batch", async () => {
      const { documents, segments } = repositories();
      const dataset = await aDataset_();
      const document = aDocument(dataset.id);
      await documents.save(document);
      const chunk = aChunk(document.id, { content: "héllo 👋", hitCount: 3 });
      await documents.saveChunks([chunk]);
      expect(await segments.listOfDocument(document.id)).toEqual([
        expect.objectContaining({
          ...chunk,
          wordCount: 7,
          status: "completed",
          enabled: true,
          keywords: [],
          tokens: 0,
          answer: null,
        }),
      ]);
    });

    it("finds the enabled uploaded-file document of a name to reuse, first by position", async () => {
      const { documents } = repositories();
      const dataset = await aDataset_();
      const other = await aDataset_();
      const disabled = aDocument(dataset.id, { name: "notes", position: 1, enabled: false });
      const first = aDocument(dataset.id, { name: "notes", position: 2 });
      const second = aDocument(dataset.id, { name: "notes", position: 3 });
      const imported = aDocument(dataset.id, {
        name: "other",
        position: 4,
        dataSourceType: "thirdparty_import",
      });
      for (const document of [disabled, second, first, imported, aDocument(other.id, { name: "notes" })])
        await documents.save(document);
      expect((await documents.findReusable(dataset.id, "notes"))?.id).toBe(first.id);
      expect(await documents.findReusable(dataset.id, "Notes")).toBeUndefined();
      expect(await documents.findReusable(dataset.id, "other")).toBeUndefined();
    });

    it("lists a batch's documents by position with their segments counted", async () => {
      const { documents, segments } = repositories();
      const dataset = await aDataset_();
      const batch = "20261201000000123456";
      const [later, earlier] = [
        aDocument(dataset.id, { position: 2, batch, indexingStatus: "waiting", completedAt: null }),
        aDocument(dataset.id, { position: 1, batch }),
      ];
      await documents.queueForIndexing(later, "job-a");
      await queued(earlier, "job-b");
      await documents.save(aDocument(dataset.id, { position: 3, batch: "other" }));
      await segments.publish(
        earlier.id,
        { jobId: "job-b", holder: "w" },
        [aSegment(earlier.id, 1), aSegment(earlier.id, 2, { completedAt: null, status: "indexing" })],
        [],
        {},
        [],
      );
      expect(await documents.listBatch(dataset.id, batch)).toEqual([
        { document: earlier, totalSegments: 2, completedSegments: 1 },
        { document: later, totalSegments: 0, completedSegments: 0 },
      ]);
      expect(await documents.listBatch(dataset.id, "none")).toEqual([]);
    });
  });
}
