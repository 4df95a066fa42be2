import type {
  Chunk,
  ChunkStats,
  Dataset,
  DisplayStatus,
  Document,
  DocumentStatusPatch,
  MetadataEntry,
  UploadFile,
} from "@service-api/domain";
import type { IndexingFence, IndexingPatch } from "./segment-repository.js";
import type { ServedTo } from "./served-to.js";

/** A status action's write: the documents it read, the ones it changes, and what it sets on them. */
export interface StatusUpdate {
  read: readonly Document[];
  changing: readonly string[];
  patch: DocumentStatusPatch;
}

/** A document as its list shows it. */
export interface DocumentListing {
  document: Document;
  uploadFile: UploadFile | undefined;
  /** The chunks' hit counts, summed. */
  hitCount: number;
  /** The creator member's name; null when unknown. */
  creatorName: string | null;
  /** Its custom values, one per field holding one, in the fields' creation order. */
  values: MetadataEntry[];
}

/** A document with all Get Document shows of it. */
export interface DocumentDetailRecord {
  document: Document;
  uploadFile: UploadFile | undefined;
  chunks: ChunkStats;
  /** Its values of the dataset's fields, in the fields' order. */
  values: MetadataEntry[];
  /** The creator member's name (a member of the dataset's workspace); null when unknown. */
  creatorName: string | null;
}

/** A document of a batch, as indexing-status shows it. */
export interface BatchDocument {
  document: Document;
  /** Its segments (not `re_segment`), and how many of them completed (a completion time, or an import's completed chunk). */
  totalSegments: number;
  completedSegments: number;
}

/** A document's place in its dataset's position order: where `listInDatasetAfter` goes on from. */
export interface DocumentPlace {
  position: number;
  id: string;
}

/** Which documents a list holds. */
export interface DocumentFilter {
  /** A substring of the name (see `matchesTextFilter`). */
  keyword?: string;
  /** Only documents whose display status is this. */
  status?: DisplayStatus;
}

/**
 * Documents of knowledge bases, with their chunks and uploaded files. Each document's display
 * status is stored with it, derived by the domain's rule on every write; the dataset's counts
 * follow every write.
 */
export interface DocumentRepository {
  /**
   * Inserts or replaces the document with this id, with its processing rule (imports); its dataset
   * must exist. Answers "owned_elsewhere", writing nothing, when the id is another dataset's
   * document (a document never moves); undefined when it wrote.
   */
  save(document: Document): Promise<"owned_elsewhere" | undefined>;
  /**
   * Inserts or replaces an uploaded file of this workspace (imports). Answers "owned_elsewhere",
   * writing nothing, when the id is another workspace's file; undefined when it wrote.
   */
  saveUploadFile(workspaceId: string, file: UploadFile): Promise<"owned_elsewhere" | undefined>;
  /**
   * Inserts or replaces these chunks (by id). Their documents must exist. A chunk whose id is another
   * document's is not written (a chunk never moves): their ids are returned, the others written.
   */
  saveChunks(chunks: readonly Chunk[]): Promise<string[]>;
  /**
   * Inserts or replaces the document (a create, or a reuse of one of the same name) as queued for
   * indexing by the job `jobId`, which becomes its indexing job: a job queued for it before is no
   * longer current. Its segments stay as they are until the job publishes new ones.
   */
  queueForIndexing(document: Document, jobId: string): Promise<void>;
  /**
   * Sets an indexing step's state on the document while the fence holds (its indexing job, held by
   * that worker), taking the document's dataset first (the one lock order); false, writing
   * nothing, when it does not (or the document is gone).
   */
  recordIndexingStep(documentId: string, fence: IndexingFence, patch: IndexingPatch): Promise<boolean>;
  /** Deletes an uploaded file (its bytes with it) that no document names; false when one does or it is gone. */
  deleteUnusedUploadFile(fileId: string): Promise<boolean>;
  /** Whether `jobId` is the document's indexing job. */
  isIndexingJob(documentId: string, jobId: string): Promise<boolean>;
  /** The document while `jobId` is its indexing job; absent when it is not (or the document is gone). */
  findForIndexing(documentId: string, jobId: string): Promise<Document | undefined>;
  /**
   * The dataset's enabled uploaded-file document with this name, first by position then id (Dify's
   * duplicate check: a create by text or file of that name reuses it); absent when none.
   */
  findReusable(datasetId: string, name: string): Promise<Document | undefined>;
  /** The dataset's documents of a batch, by position then id, with their segment counts. */
  listBatch(datasetId: string, batch: string): Promise<BatchDocument[]>;
  /** The document with this id if it belongs to this dataset; one of another dataset is absent. */
  findInDataset(datasetId: string, documentId: string): Promise<Document | undefined>;
  /**
   * The workspace's dataset (absent when the workspace has none of that id) and, when it has one,
   * its document with everything shown of it (absent when the dataset has no such document), read
   * together: one statement where the store can.
   */
  findDetail(
    workspaceId: string,
    datasetId: string,
    documentId: string,
  ): Promise<{ dataset: Dataset | undefined; detail: DocumentDetailRecord | undefined }>;
  /** The dataset's documents among these ids, in no particular order; others are left out. */
  findManyInDataset(datasetId: string, documentIds: readonly string[]): Promise<Document[]>;
  /**
   * The workspace's dataset, its documents among `documentIds` (in no particular order) and the
   * workspace owner's member id, read together: one statement where the store can. No dataset:
   * nothing else.
   */
  findForStatusUpdate(
    workspaceId: string,
    datasetId: string,
    documentIds: readonly string[],
  ): Promise<{ dataset: Dataset | undefined; documents: Document[]; ownerId: string | null }>;
  /**
   * Sets `patch` on the dataset's documents `changing`, all or nothing, while every document of
   * `read` still has the indexing status, `isPaused`, `enabled` and `archived` it was read with; the
   * display status follows. One statement where the store can, taking the dataset's lock first
   * where rows lock. False, and nothing written, when one of them changed or went meanwhile.
   */
  updateStatus(datasetId: string, update: StatusUpdate): Promise<boolean>;
  /** The uploaded file with this id; absent when the file is gone. */
  findUploadFile(fileId: string): Promise<UploadFile | undefined>;
  /**
   * The uploaded file with this id while a document names it in a dataset of the file's own
   * workspace (so not one deleted, whose purge is to come): what a signed file URL may serve.
   */
  findServedUploadFile(fileId: string): Promise<UploadFile | undefined>;
  /**
   * For each of these uploaded file ids that documents name, the ids of those documents, in no
   * particular order; an id none names is absent. Ids given twice are read once. For imports: a
   * file is one document's.
   */
  findUploadFileHolders(fileIds: readonly string[]): Promise<Map<string, string[]>>;
  /** The dataset's documents, by position then id. */
  listInDataset(datasetId: string): Promise<Document[]>;
  /**
   * Up to `limit` of the dataset's documents in `listInDataset`'s order (position, then id in code
   * point order) that come after `after`: a greater position, or the same position and a greater
   * id. Without `after`, from the first. Empty past the last document, and for an empty or missing
   * dataset. Each page is read from where the last one ended, so reading a dataset a page at a time
   * (passing each page's last document on) costs the same per page however far in it is, and in
   * one snapshot reads each document once. Pages read outside one see the writes made between
   * them where they fall: a document placed behind `after` meanwhile is not read, one ahead of it is.
   */
  listInDatasetAfter(datasetId: string, after: DocumentPlace | undefined, limit: number): Promise<Document[]>;
  /**
   * A page of the dataset's documents matching `filter`, newest first (`createdAt`), then by
   * position descending, then id; and how many match in all: one statement where the store can.
   */
  listPage(
    datasetId: string,
    filter: DocumentFilter,
    offset: number,
    limit: number,
  ): Promise<{ items: DocumentListing[]; total: number }>;
  /**
   * The workspace's dataset (absent when the workspace has none of that id) and, when it has one,
   * `listPage`'s page of it, read together: one statement where the store can. Without the
   * dataset the page is empty.
   */
  findPage(
    workspaceId: string,
    datasetId: string,
    filter: DocumentFilter,
    offset: number,
    limit: number,
  ): Promise<{ dataset: Dataset | undefined; items: DocumentListing[]; total: number }>;
  /** The document's chunks, by position then id. */
  listChunks(documentId: string): Promise<Chunk[]>;
  /** Count, total hit count and total characters of the document's chunks (all zero without chunks). */
  chunkStats(documentId: string): Promise<ChunkStats>;
  /** Number of documents in the dataset. */
  countInDataset(datasetId: string): Promise<number>;
  /** The greatest position of the dataset's documents; 0 without documents. */
  lastPosition(datasetId: string): Promise<number>;
  /**
   * Deletes the dataset's document with its chunks and metadata values, and its uploaded file unless
   * another document uses it, when its archived flag is `expected.archived`: one statement where the
   * store can, taking the dataset's lock first where rows lock. Other documents keep their
   * positions. False when it deleted nothing (no such document, or its flag differs; with
   * `servedTo`, also when the dataset does not serve that workspace).
   */
  delete(
    datasetId: string,
    documentId: string,
    expected: { archived: boolean },
    servedTo?: ServedTo,
  ): Promise<boolean>;
}
