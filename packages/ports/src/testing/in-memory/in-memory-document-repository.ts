import {
  type ChildChunk,
  type Chunk,
  type ChunkStats,
  type Dataset,
  type DatasetCounts,
  type Document,
  displayStatus,
  matchesTextFilter,
  NO_CHUNKS,
  type SearchUnit,
  type Segment,
  type UploadFile,
} from "@service-api/domain";
import type {
  BatchDocument,
  DocumentFilter,
  DocumentListing,
  DocumentPlace,
  DocumentRepository,
  StatusUpdate,
} from "../../document-repository.js";
import type {
  DocumentSegments,
  IndexingFence,
  IndexingPatch,
  SegmentFilter,
  SegmentRepository,
} from "../../segment-repository.js";
import type { ServedTo } from "../../served-to.js";
import type { InMemoryMetadataRepository } from "./in-memory-metadata-repository.js";
import type { InMemoryWorkspaceRepository } from "./in-memory-workspace-repository.js";
import { byPosition, byText, type Snapshotting } from "./snapshotting.js";

/** What a segment holds beyond a chunk: Dify's values for a completed, enabled one where unset. */
type SegmentDetails = Omit<Segment, keyof Chunk>;

const detailsOf = (chunk: Chunk): SegmentDetails => ({
  answer: null,
  wordCount: [...chunk.content].length,
  tokens: 0,
  keywords: [],
  indexNodeId: null,
  indexNodeHash: null,
  enabled: true,
  disabledAt: null,
  disabledBy: null,
  status: "completed",
  createdBy: null,
  createdAt: null,
  updatedAt: null,
  updatedBy: null,
  indexingAt: null,
  completedAt: null,
  error: null,
  stoppedAt: null,
});

/** Documents and their chunks in memory; also the store's segments (`SegmentRepository`). */
export class InMemoryDocumentRepository implements DocumentRepository, SegmentRepository, Snapshotting {
  #documents = new Map<string, Document>();
  #files = new Map<string, UploadFile>();
  #chunks = new Map<string, Chunk>();
  /** An uploaded file's workspace, by the file's id. */
  #fileWorkspaces = new Map<string, string>();
  /** A segment's fields beyond its chunk's, by the chunk's id (absent: `detailsOf`). */
  #details = new Map<string, SegmentDetails>();
  #children = new Map<string, ChildChunk>();
  /** Each document's indexing job. */
  #indexingJobs = new Map<string, string>();
  /** Whether a worker holds a job's lease: the store's job queue's, set by the store. */
  jobHeld: (jobId: string, holder: string) => Promise<boolean> = async () => true;

  constructor(
    private readonly metadata: InMemoryMetadataRepository,
    private readonly workspaces: InMemoryWorkspaceRepository,
    private readonly datasetOf: (workspaceId: string, datasetId: string) => Promise<Dataset | undefined>,
  ) {}

  snapshot(): unknown {
    return structuredClone([
      this.#documents,
      this.#files,
      this.#chunks,
      this.#fileWorkspaces,
      this.#details,
      this.#children,
      this.#indexingJobs,
    ]);
  }

  restore(snapshot: unknown): void {
    [
      this.#documents,
      this.#files,
      this.#chunks,
      this.#fileWorkspaces,
      this.#details,
      this.#children,
      this.#indexingJobs,
    ] = snapshot as [
      Map<string, Document>,
      Map<string, UploadFile>,
      Map<string, Chunk>,
      Map<string, string>,
      Map<string, SegmentDetails>,
      Map<string, ChildChunk>,
      Map<string, string>,
    ];
  }

  #dropChunksOf(documentId: string): void {
    for (const [id, chunk] of this.#chunks)
      if (chunk.documentId === documentId) {
        this.#chunks.delete(id);
        this.#details.delete(id);
      }
    for (const [id, child] of this.#children) if (child.documentId === documentId) this.#children.delete(id);
  }

  async queueForIndexing(document: Document, jobId: string): Promise<void> {
    this.#documents.set(document.id, structuredClone(document));
    this.#indexingJobs.set(document.id, jobId);
  }

  async isIndexingJob(documentId: string, jobId: string): Promise<boolean> {
    return this.#documents.has(documentId) && this.#indexingJobs.get(documentId) === jobId;
  }

  async findForIndexing(documentId: string, jobId: string): Promise<Document | undefined> {
    return (await this.isIndexingJob(documentId, jobId))
      ? structuredClone(this.#documents.get(documentId))
      : undefined;
  }

  async #fenceHolds(documentId: string, { jobId, holder }: IndexingFence): Promise<boolean> {
    return (await this.isIndexingJob(documentId, jobId)) && (await this.jobHeld(jobId, holder));
  }

  async deleteUnusedUploadFile(fileId: string): Promise<boolean> {
    const used = [...this.#documents.values()].some((document) => document.uploadFileId === fileId);
    if (used || !this.#files.has(fileId)) return false;
    this.#files.delete(fileId);
    this.#fileWorkspaces.delete(fileId);
    return true;
  }

  async recordIndexingStep(documentId: string, fence: IndexingFence, patch: IndexingPatch): Promise<boolean> {
    if (!(await this.#fenceHolds(documentId, fence))) return false;
    Object.assign(this.#documents.get(documentId)!, structuredClone(patch));
    return true;
  }

  async publish(
    documentId: string,
    fence: IndexingFence,
    segments: readonly Segment[],
    children: readonly ChildChunk[],
    finish: IndexingPatch,
    _units: readonly SearchUnit[],
  ): Promise<boolean> {
    if (!(await this.#fenceHolds(documentId, fence))) return false;
    this.#dropChunksOf(documentId);
    for (const segment of segments) this.#setSegment(segment);
    for (const child of children) this.#children.set(child.id, structuredClone(child));
    Object.assign(this.#documents.get(documentId)!, structuredClone(finish));
    return true;
  }

  #setSegment(segment: Segment): void {
    const { id, documentId, position, content, hitCount, ...details } = structuredClone(segment);
    this.#chunks.set(id, { id, documentId, position, content, hitCount });
    this.#details.set(id, details);
  }

  async replaceForImport(
    documentId: string,
    segments: readonly Segment[],
    children: readonly ChildChunk[],
  ): Promise<string[]> {
    this.#dropChunksOf(documentId);
    // The document's own are gone: any stored under one of these ids is another document's.
    const refused = segments.filter((segment) => this.#chunks.has(segment.id)).map((segment) => segment.id);
    const unwritten = new Set(refused);
    for (const segment of segments) if (!unwritten.has(segment.id)) this.#setSegment(segment);
    for (const child of children) {
      if (unwritten.has(child.segmentId)) continue;
      if (this.#children.has(child.id)) refused.push(child.id);
      else this.#children.set(child.id, structuredClone(child));
    }
    return refused;
  }

  async listOfDocument(documentId: string): Promise<Segment[]> {
    return (await this.listChunks(documentId)).map((chunk) => ({
      ...chunk,
      ...structuredClone(this.#details.get(chunk.id) ?? detailsOf(chunk)),
    }));
  }

  async listOfDocuments(documentIds: readonly string[]): Promise<Map<string, DocumentSegments>> {
    const read = new Map<string, DocumentSegments>();
    for (const id of new Set(documentIds))
      read.set(id, {
        segments: await this.listOfDocument(id),
        children: await this.listChildrenOfDocument(id),
      });
    return read;
  }

  async listPageOfDocument(documentId: string, filter: SegmentFilter, offset: number, limit: number) {
    const matching = (await this.listOfDocument(documentId)).filter(
      (segment) =>
        (!filter.statuses?.length || filter.statuses.includes(segment.status)) &&
        (filter.keyword === undefined || matchesTextFilter(segment.content, filter.keyword)),
    );
    return { segments: matching.slice(offset, offset + limit), total: matching.length };
  }

  async listChildPageOfSegment(
    segmentId: string,
    keyword: string | undefined,
    offset: number,
    limit: number,
  ) {
    const matching = ((await this.listChildrenOf([segmentId])).get(segmentId) ?? []).filter(
      (child) => keyword === undefined || matchesTextFilter(child.content, keyword),
    );
    return { children: matching.slice(offset, offset + limit), total: matching.length };
  }

  async listChildrenOf(segmentIds: readonly string[]): Promise<Map<string, ChildChunk[]>> {
    const asked = new Set(segmentIds);
    const read = new Map<string, ChildChunk[]>();
    const children = [...this.#children.values()]
      .filter((child) => asked.has(child.segmentId))
      .sort((a, b) => a.position - b.position || byText(a.id, b.id));
    for (const child of children)
      read.set(child.segmentId, [...(read.get(child.segmentId) ?? []), structuredClone(child)]);
    return read;
  }

  async listByIds(segmentIds: readonly string[]): Promise<Segment[]> {
    const found: Segment[] = [];
    for (const id of new Set(segmentIds)) {
      const chunk = this.#chunks.get(id);
      const segment = chunk && (await this.findInDocument(chunk.documentId, id));
      if (segment) found.push(segment);
    }
    return found;
  }

  async findInDocument(documentId: string, segmentId: string): Promise<Segment | undefined> {
    return (await this.listOfDocument(documentId)).find((segment) => segment.id === segmentId);
  }

  async deleteInDocument(documentId: string, segmentId: string): Promise<boolean> {
    const segment = await this.findInDocument(documentId, segmentId);
    const document = this.#documents.get(documentId);
    if (!segment || !document) return false;
    this.#chunks.delete(segmentId);
    this.#details.delete(segmentId);
    for (const [id, child] of this.#children) if (child.segmentId === segmentId) this.#children.delete(id);
    document.wordCount = Math.max(0, document.wordCount - segment.wordCount);
    return true;
  }

  async appendToDocument(
    documentId: string,
    segments: readonly Segment[],
    children: readonly ChildChunk[],
  ): Promise<Segment[]> {
    const document = this.#documents.get(documentId);
    const first =
      Math.max(0, ...(await this.listOfDocument(documentId)).map((segment) => segment.position)) + 1;
    const placed = segments.map((segment, index) => ({ ...segment, documentId, position: first + index }));
    for (const segment of placed) this.#setSegment(segment);
    for (const child of children) this.#children.set(child.id, structuredClone(child));
    if (document)
      document.wordCount = Math.max(
        0,
        placed.reduce((sum, segment) => sum + segment.wordCount, document.wordCount),
      );
    return structuredClone(placed);
  }

  async updateInDocument(
    documentId: string,
    segment: Segment,
    children?: readonly ChildChunk[],
  ): Promise<boolean> {
    const before = await this.findInDocument(documentId, segment.id);
    const document = this.#documents.get(documentId);
    if (!before || !document) return false;
    this.#setSegment({ ...segment, documentId, position: before.position });
    document.wordCount = Math.max(0, document.wordCount + segment.wordCount - before.wordCount);
    if (children) {
      for (const [id, child] of this.#children) if (child.segmentId === segment.id) this.#children.delete(id);
      for (const child of children) this.#children.set(child.id, structuredClone(child));
    }
    return true;
  }

  async findChildOfSegment(segmentId: string, childId: string): Promise<ChildChunk | undefined> {
    const child = this.#children.get(childId);
    return child?.segmentId === segmentId ? structuredClone(child) : undefined;
  }

  async appendChild(child: ChildChunk): Promise<ChildChunk> {
    const siblings = [...this.#children.values()].filter((other) => other.segmentId === child.segmentId);
    const placed = { ...child, position: Math.max(0, ...siblings.map((other) => other.position)) + 1 };
    this.#children.set(placed.id, structuredClone(placed));
    return structuredClone(placed);
  }

  async updateChild(child: ChildChunk): Promise<boolean> {
    const before = await this.findChildOfSegment(child.segmentId, child.id);
    if (!before) return false;
    this.#children.set(
      child.id,
      structuredClone({ ...child, documentId: before.documentId, position: before.position }),
    );
    return true;
  }

  async deleteChild(segmentId: string, childId: string): Promise<boolean> {
    if (!(await this.findChildOfSegment(segmentId, childId))) return false;
    return this.#children.delete(childId);
  }

  async listChildrenOfDocument(documentId: string): Promise<ChildChunk[]> {
    const position = (segmentId: string) => this.#chunks.get(segmentId)?.position ?? 0;
    return structuredClone(
      [...this.#children.values()]
        .filter((child) => child.documentId === documentId)
        .sort(
          (a, b) =>
            position(a.segmentId) - position(b.segmentId) || a.position - b.position || byText(a.id, b.id),
        ),
    );
  }

  async findReusable(datasetId: string, name: string): Promise<Document | undefined> {
    const [found] = this.#ofDataset(datasetId)
      .filter(
        (document) => document.dataSourceType === "upload_file" && document.enabled && document.name === name,
      )
      .sort(byPosition);
    return found && structuredClone(found);
  }

  async listBatch(datasetId: string, batch: string): Promise<BatchDocument[]> {
    const ofBatch = this.#ofDataset(datasetId)
      .filter((document) => document.batch === batch)
      .sort(byPosition);
    return Promise.all(
      ofBatch.map(async (document) => {
        const segments = await this.listOfDocument(document.id);
        const counted = segments.filter((segment) => segment.status !== "re_segment");
        return {
          document: structuredClone(document),
          totalSegments: counted.length,
          completedSegments: counted.filter(
            (segment) => segment.completedAt !== null || segment.status === "completed",
          ).length,
        };
      }),
    );
  }

  #ofDataset(datasetId: string): Document[] {
    return [...this.#documents.values()].filter((document) => document.datasetId === datasetId);
  }

  async listInDataset(datasetId: string): Promise<Document[]> {
    return structuredClone(this.#ofDataset(datasetId).sort(byPosition));
  }

  async listInDatasetAfter(
    datasetId: string,
    after: DocumentPlace | undefined,
    limit: number,
  ): Promise<Document[]> {
    const ahead = this.#ofDataset(datasetId).filter((document) => !after || byPosition(document, after) > 0);
    return structuredClone(ahead.sort(byPosition).slice(0, limit));
  }

  async listPage(
    datasetId: string,
    filter: DocumentFilter,
    offset: number,
    limit: number,
  ): Promise<{ items: DocumentListing[]; total: number }> {
    const matching = this.#ofDataset(datasetId)
      .filter((document) => filter.keyword === undefined || matchesTextFilter(document.name, filter.keyword))
      .filter((document) => filter.status === undefined || displayStatus(document) === filter.status)
      .sort((a, b) => b.createdAt - a.createdAt || b.position - a.position || byText(a.id, b.id));
    const items = await Promise.all(
      matching.slice(offset, offset + limit).map(async (document) => ({
        document: structuredClone(document),
        uploadFile: document.uploadFileId
          ? structuredClone(this.#files.get(document.uploadFileId))
          : undefined,
        hitCount: this.#stats(document.id).hitCount,
        creatorName: this.workspaces.memberName(document.createdBy),
        values: await this.metadata.valuesOf(document.id),
      })),
    );
    return { items, total: matching.length };
  }

  async findPage(
    workspaceId: string,
    datasetId: string,
    filter: DocumentFilter,
    offset: number,
    limit: number,
  ) {
    const dataset = await this.datasetOf(workspaceId, datasetId);
    if (!dataset) return { dataset, items: [], total: 0 };
    return { dataset, ...(await this.listPage(datasetId, filter, offset, limit)) };
  }

  async listChunks(documentId: string): Promise<Chunk[]> {
    const chunks = [...this.#chunks.values()].filter((chunk) => chunk.documentId === documentId);
    return structuredClone(chunks.sort(byPosition));
  }

  async save(document: Document): Promise<"owned_elsewhere" | undefined> {
    const stored = this.#documents.get(document.id);
    if (stored && stored.datasetId !== document.datasetId) return "owned_elsewhere";
    this.#documents.set(document.id, structuredClone(document));
    return undefined;
  }

  async saveUploadFile(workspaceId: string, file: UploadFile): Promise<"owned_elsewhere" | undefined> {
    const stored = this.#fileWorkspaces.get(file.id);
    if (stored !== undefined && stored !== workspaceId) return "owned_elsewhere";
    this.#files.set(file.id, structuredClone(file));
    this.#fileWorkspaces.set(file.id, workspaceId);
    return undefined;
  }

  async saveChunks(chunks: readonly Chunk[]): Promise<string[]> {
    const refused: string[] = [];
    for (const chunk of chunks) {
      const stored = this.#chunks.get(chunk.id);
      if (stored && stored.documentId !== chunk.documentId) refused.push(chunk.id);
      else {
        this.#chunks.set(chunk.id, structuredClone(chunk));
        this.#details.delete(chunk.id);
      }
    }
    return refused;
  }

  /** Each document's processing rule id with its dataset, for the in-memory dataset repository. */
  processRules(): (readonly [string, string])[] {
    return [...this.#documents.values()].map((document) => [document.processRule.id, document.datasetId]);
  }

  async findInDataset(datasetId: string, documentId: string): Promise<Document | undefined> {
    const document = this.#documents.get(documentId);
    return document?.datasetId === datasetId ? structuredClone(document) : undefined;
  }

  async findDetail(workspaceId: string, datasetId: string, documentId: string) {
    const dataset = await this.datasetOf(workspaceId, datasetId);
    const document = dataset && (await this.findInDataset(datasetId, documentId));
    if (!dataset || !document) return { dataset, detail: undefined };
    const creator = await this.workspaces.findMember(dataset.workspaceId, document.createdBy);
    return {
      dataset,
      detail: {
        document,
        uploadFile: document.uploadFileId ? await this.findUploadFile(document.uploadFileId) : undefined,
        chunks: this.#stats(document.id),
        values: await this.metadata.valuesOf(document.id),
        creatorName: creator?.name ?? null,
      },
    };
  }

  async findManyInDataset(datasetId: string, documentIds: readonly string[]): Promise<Document[]> {
    return [...new Set(documentIds)].flatMap((id) => {
      const document = this.#documents.get(id);
      return document?.datasetId === datasetId ? [structuredClone(document)] : [];
    });
  }

  async findForStatusUpdate(workspaceId: string, datasetId: string, documentIds: readonly string[]) {
    const dataset = await this.datasetOf(workspaceId, datasetId);
    if (!dataset) return { dataset, documents: [], ownerId: null };
    return {
      dataset,
      documents: await this.findManyInDataset(datasetId, documentIds),
      ownerId: (await this.workspaces.findOwner(workspaceId))?.id ?? null,
    };
  }

  async updateStatus(datasetId: string, { read, changing, patch }: StatusUpdate): Promise<boolean> {
    const unchanged = read.every((before) => {
      const now = this.#documents.get(before.id);
      return (
        now?.datasetId === datasetId &&
        now.indexingStatus === before.indexingStatus &&
        now.isPaused === before.isPaused &&
        now.enabled === before.enabled &&
        now.archived === before.archived
      );
    });
    if (!unchanged) return false;
    for (const id of changing) {
      const document = this.#documents.get(id);
      if (document?.datasetId === datasetId)
        this.#documents.set(id, { ...document, ...structuredClone(patch) });
    }
    return true;
  }

  /** Whether the file's row is there, for the in-memory file store. */
  hasUploadFile(fileId: string): boolean {
    return this.#files.has(fileId);
  }

  async findUploadFile(fileId: string): Promise<UploadFile | undefined> {
    return structuredClone(this.#files.get(fileId));
  }

  async findServedUploadFile(fileId: string): Promise<UploadFile | undefined> {
    const workspaceId = this.#fileWorkspaces.get(fileId);
    if (workspaceId === undefined) return undefined;
    for (const document of this.#documents.values()) {
      if (document.uploadFileId === fileId && (await this.datasetOf(workspaceId, document.datasetId)))
        return this.findUploadFile(fileId);
    }
    return undefined;
  }

  async findUploadFileHolders(fileIds: readonly string[]): Promise<Map<string, string[]>> {
    const asked = new Set(fileIds);
    const holders = new Map<string, string[]>();
    for (const { id, uploadFileId } of this.#documents.values()) {
      if (uploadFileId !== null && asked.has(uploadFileId))
        holders.set(uploadFileId, [...(holders.get(uploadFileId) ?? []), id]);
    }
    return holders;
  }

  #stats(documentId: string): ChunkStats {
    const stats = { ...NO_CHUNKS };
    for (const chunk of this.#chunks.values()) {
      if (chunk.documentId !== documentId) continue;
      stats.count += 1;
      stats.hitCount += chunk.hitCount;
      stats.characters += [...chunk.content].length;
    }
    return stats;
  }

  async chunkStats(documentId: string): Promise<ChunkStats> {
    return this.#stats(documentId);
  }

  async countInDataset(datasetId: string): Promise<number> {
    return this.#ofDataset(datasetId).length;
  }

  async lastPosition(datasetId: string): Promise<number> {
    return this.#ofDataset(datasetId).reduce((last, document) => Math.max(last, document.position), 0);
  }

  /** The dataset's counts, for the in-memory dataset repository. */
  countsOf(datasetId: string): DatasetCounts {
    const documents = this.#ofDataset(datasetId);
    return {
      documents: documents.length,
      availableDocuments: documents.filter((document) => displayStatus(document) === "available").length,
      words: documents.reduce((sum, document) => sum + document.wordCount, 0),
    };
  }

  /** The dataset's first document (by position, then id), for the in-memory dataset repository. */
  firstOf(datasetId: string): Document | undefined {
    return this.#ofDataset(datasetId).sort(byPosition)[0];
  }

  async delete(
    datasetId: string,
    documentId: string,
    expected: { archived: boolean },
    servedTo?: ServedTo,
  ): Promise<boolean> {
    const document = this.#documents.get(documentId);
    if (document?.datasetId !== datasetId || document.archived !== expected.archived) return false;
    if (servedTo !== undefined && (await this.datasetOf(servedTo, datasetId))?.enableApi !== true)
      return false;
    this.#documents.delete(documentId);
    this.#indexingJobs.delete(documentId);
    this.#dropChunksOf(documentId);
    await this.metadata.clearValues(documentId);
    const fileId = document.uploadFileId;
    const shared = [...this.#documents.values()].some((other) => other.uploadFileId === fileId);
    if (fileId && !shared) {
      this.#files.delete(fileId);
      this.#fileWorkspaces.delete(fileId);
    }
    return true;
  }
}
