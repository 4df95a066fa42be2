import type { ChildChunk, Document, IndexingSteps, SearchUnit, Segment } from "@service-api/domain";

/** What an indexing step sets on its document (the display status follows). */
export type IndexingPatch = Partial<
  Pick<Document, "indexingStatus" | "error" | "wordCount" | "tokens" | "completedAt" | "indexingLatency"> &
    IndexingSteps
>;

/**
 * Who may write a document's indexing: its current indexing job, as held now by one worker (the
 * job's lease). A job taken over by another worker after its lease lapsed is the other's.
 */
export interface IndexingFence {
  jobId: string;
  /** The worker holding the job's lease. */
  holder: string;
}

/** A document's segments and their child chunks, as `listOfDocument` and `listChildrenOfDocument` give them. */
export interface DocumentSegments {
  /** By position, then id. */
  segments: Segment[];
  /** By their segment's position, then position, then id. */
  children: ChildChunk[];
}

/** Which of a document's segments a list shows: any of these statuses, holding this text. */
export interface SegmentFilter {
  /** None, or empty: every status. */
  statuses?: readonly string[];
  /** A substring of the content, ASCII letters in either case, `%` and `_` as themselves. */
  keyword?: string;
}

/**
 * The segments of documents (chunks grown to Dify's segment) and their child chunks, as indexing
 * writes them and as an import and an export carry them, and their search index: every write but
 * `publish` (which is given its units) indexes what it writes (`searchUnitsOf`) in its own
 * transaction, and whatever goes leaves the index with it. A document's indexing job is the one it was last queued with
 * (`DocumentRepository.queueForIndexing`); a job queued for a version replaced or deleted since is
 * not current, and what it would write is not written.
 */
export interface SegmentRepository {
  /**
   * While the fence holds (`fence.jobId` is the document's indexing job, held by `fence.holder`),
   * in one transaction that takes the document's dataset first: its segments become these (the old
   * ones go, with their children), in their positions, `units` (`searchUnitsOf` them, analyzed off
   * the event loop) their search index, and the document takes `finish`. A reader sees the old
   * version or the new one whole, never a mix, in its lists and its searches. False, writing
   * nothing, when the fence does not hold (or the document is gone).
   */
  publish(
    documentId: string,
    fence: IndexingFence,
    segments: readonly Segment[],
    children: readonly ChildChunk[],
    finish: IndexingPatch,
    units: readonly SearchUnit[],
  ): Promise<boolean>;
  /** The document's segments, by position then id. */
  listOfDocument(documentId: string): Promise<Segment[]>;
  /** The document's child chunks, by segment position, then position, then id. */
  listChildrenOfDocument(documentId: string): Promise<ChildChunk[]>;
  /**
   * Up to `limit` of the document's segments among `filter`'s, from `offset`, by position then id,
   * and how many there are in all.
   */
  listPageOfDocument(
    documentId: string,
    filter: SegmentFilter,
    offset: number,
    limit: number,
  ): Promise<{ segments: Segment[]; total: number }>;
  /**
   * Up to `limit` of the segment's child chunks holding `keyword` (as `SegmentFilter`'s), from
   * `offset`, by position then id, and how many there are in all.
   */
  listChildPageOfSegment(
    segmentId: string,
    keyword: string | undefined,
    offset: number,
    limit: number,
  ): Promise<{ children: ChildChunk[]; total: number }>;
  /** The child chunks of each of these segments, by position then id; a segment without is absent. */
  listChildrenOf(segmentIds: readonly string[]): Promise<Map<string, ChildChunk[]>>;
  /** The segments of these ids, any document's, in no order; ids naming none are left out. */
  listByIds(segmentIds: readonly string[]): Promise<Segment[]>;
  /** The document's segment with this id; absent when the document holds none of that id. */
  findInDocument(documentId: string, segmentId: string): Promise<Segment | undefined>;
  /**
   * Deletes the document's segment and its child chunks, and takes its word count off the
   * document's (never below 0); false, deleting nothing, when the document holds none of that id.
   */
  deleteInDocument(documentId: string, segmentId: string): Promise<boolean>;
  /**
   * Adds these segments after the document's last, in the order given (positions continue from the
   * largest, 1 for the first, whatever `position` they carry), with their child chunks (each naming
   * one of them), and adds their word counts to the document's. Returns the segments as stored.
   * Positions stay unique while the caller holds the dataset (`DatasetRepository.lockForUpdate`).
   * In the caller's transaction, or one of its own.
   */
  appendToDocument(
    documentId: string,
    segments: readonly Segment[],
    children: readonly ChildChunk[],
  ): Promise<Segment[]>;
  /**
   * Writes `segment` over the document's segment of its id, its position kept, and moves the
   * document's word count by the difference (never below 0); with `children`, those become the
   * segment's child chunks, its others gone. False, writing nothing, when the document holds none of
   * that id. In the caller's transaction, or one of its own.
   */
  updateInDocument(documentId: string, segment: Segment, children?: readonly ChildChunk[]): Promise<boolean>;
  /** The segment's child chunk with this id; absent when the segment holds none of that id. */
  findChildOfSegment(segmentId: string, childId: string): Promise<ChildChunk | undefined>;
  /**
   * Adds the child chunk after its segment's last (position: the largest + 1, 1 for the first,
   * whatever it carries) and returns it as stored; unique while the caller holds the dataset.
   */
  appendChild(child: ChildChunk): Promise<ChildChunk>;
  /** Writes `child` over its segment's child chunk of its id, its position kept; false when there is none. */
  updateChild(child: ChildChunk): Promise<boolean>;
  /** Deletes the segment's child chunk of this id; false, deleting nothing, when there is none. */
  deleteChild(segmentId: string, childId: string): Promise<boolean>;
  /**
   * The segments and child chunks of each of these documents, read together (an export's page of
   * documents): every id given is a key, one without segments (or no document) maps to empty lists.
   * Ids given twice are read once.
   */
  listOfDocuments(documentIds: readonly string[]): Promise<Map<string, DocumentSegments>>;
  /**
   * Makes these, every field as given, the document's only segments and child chunks (an import):
   * the document's others go. The document must exist; each child's `segmentId` names one of
   * `segments`, and every segment and child names the document. A segment or child chunk whose id
   * another document's holds is not written (neither ever moves), nor are the children of a
   * segment not written: the ids held elsewhere are returned, segments' first, in the order given;
   * the rest is written. All of it lands together: in the caller's transaction, or one of its own.
   */
  replaceForImport(
    documentId: string,
    segments: readonly Segment[],
    children: readonly ChildChunk[],
  ): Promise<string[]>;
}
