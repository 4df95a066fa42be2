import {
  type ChildChunk,
  type ChunkForm,
  type ChunkingMode,
  childUnit,
  type Document,
  type SearchUnit,
  type Segment,
  type StoredRules,
  segmentUnit,
  validateProcessRule,
} from "@service-api/domain";
import type {
  Clock,
  IdGenerator,
  IndexingFence,
  IndexingPatch,
  Job,
  PreparedSegment,
  Repositories,
  TextPipeline,
} from "@service-api/ports";
import type { JobHandler, Lease } from "./job-handler.js";

/** Why a document without text to read failed. */
const NO_FILE = "The document's file is gone.";
/** Why a document whose indexing failed every attempt failed. */
const ABANDONED = (attempts: number) => `Indexing failed ${attempts} times; the document was not indexed.`;
/** Where indexing ends: a job finding its document so has nothing left to do. */
const ENDED: ReadonlySet<string> = new Set(["completed", "error"]);

/**
 * Indexes a document queued by a create or update: waiting → parsing (its file read into text,
 * off the event loop) → splitting (chunked as Dify chunks) → indexing → completed, each step on
 * the document as it goes; a file that cannot be read ends it in `error` with why. Every write is
 * fenced by the job: a document replaced or deleted meanwhile keeps what its newer version wrote,
 * and this job's work is dropped. Its segments are published in one transaction, whole.
 */
export class IndexDocument implements JobHandler {
  readonly kind = "index_document";

  constructor(
    private readonly repositories: Repositories,
    private readonly pipeline: TextPipeline,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async run(job: Job, lease: Lease): Promise<"done" | "lost"> {
    const { documents } = this.repositories;
    const documentId = job.subjectId;
    const fence: IndexingFence = { jobId: job.id, holder: lease.holder };
    const document = await documents.findForIndexing(documentId, job.id);
    // Gone, replaced, or already ended by this job (a worker that stopped before deleting it).
    if (!document || ENDED.has(document.indexingStatus)) return "done";
    const startedAt = this.clock.nowMilliseconds();
    const step = (patch: IndexingPatch) => documents.recordIndexingStep(documentId, fence, patch);
    if (!(await step({ indexingStatus: "parsing", processingStartedAt: this.clock.nowSeconds() })))
      return this.#stale(lease);
    try {
      const units = await this.#read(document);
      if (typeof units === "string") return this.#fail(documentId, fence, units);
      if (!(await lease.renew())) return "lost";
      if (!(await step({ indexingStatus: "splitting", parsingCompletedAt: this.clock.nowSeconds() })))
        return this.#stale(lease);
      const prepared = await this.pipeline.chunk(units, chunkingRuleOf(document)).catch((error: unknown) => {
        throw error instanceof PipelineFailure ? error : new PipelineFailure(messageOf(error));
      });
      if (!(await lease.renew())) return "lost";
      const now = this.clock.nowSeconds();
      const { segments, children, units: searchUnits } = this.#rows(document, prepared, now);
      const wordCount = segments.reduce((sum, segment) => sum + segment.wordCount, 0);
      const indexing = {
        indexingStatus: "indexing",
        cleaningCompletedAt: now,
        splittingCompletedAt: now,
        wordCount,
      } as const;
      if (!(await step(indexing))) return this.#stale(lease);
      const published = await this.repositories.segments.publish(
        documentId,
        fence,
        segments,
        children,
        {
          indexingStatus: "completed",
          completedAt: this.clock.nowSeconds(),
          indexingLatency: (this.clock.nowMilliseconds() - startedAt) / 1000,
          wordCount,
          tokens: 0,
          error: null,
        },
        searchUnits,
      );
      return published ? "done" : this.#stale(lease);
    } catch (error) {
      // The pipeline's own failure (a reader out of memory, a time limit): the document's error.
      // The store's is the worker's, to try again.
      if (!(error instanceof PipelineFailure)) throw error;
      return this.#fail(documentId, fence, error.message);
    }
  }

  /** Its attempts spent (the store failing each time): the document ends in `error`. */
  async abandon(job: Job, lease: Lease): Promise<void> {
    await this.repositories.documents.recordIndexingStep(
      job.subjectId,
      { jobId: job.id, holder: lease.holder },
      { indexingStatus: "error", error: ABANDONED(job.attempts - 1), stoppedAt: this.clock.nowSeconds() },
    );
  }

  /**
   * A write the fence refused: the document was replaced or deleted (this job's work is done,
   * dropped), or the lease was lost to another worker (whose job it is now).
   */
  async #stale(lease: Lease): Promise<"done" | "lost"> {
    return (await lease.renew()) ? "done" : "lost";
  }

  /** The file's units, or why it cannot be read. */
  async #read(document: Document): Promise<string[] | string> {
    const file = document.uploadFileId
      ? await this.repositories.documents.findUploadFile(document.uploadFileId)
      : undefined;
    const bytes = file && (await this.repositories.files.get(file.id));
    if (!file || !bytes) return NO_FILE;
    const extraction = await this.pipeline
      .extract({ bytes, extension: file.extension })
      .catch((error: unknown) => {
        throw new PipelineFailure(messageOf(error));
      });
    return extraction.ok ? extraction.units : extraction.reason;
  }

  async #fail(documentId: string, fence: IndexingFence, reason: string): Promise<"done"> {
    await this.repositories.documents.recordIndexingStep(documentId, fence, {
      indexingStatus: "error",
      error: reason,
      stoppedAt: this.clock.nowSeconds(),
    });
    return "done";
  }

  /**
   * The rows of the chunks: positions 1…n, each as Dify's segment (and child chunk) of an economy
   * dataset, and their search units from the terms the pipeline made.
   */
  #rows(document: Document, prepared: PreparedSegment[], now: number) {
    const segments: Segment[] = [];
    const children: ChildChunk[] = [];
    const units: SearchUnit[] = [];
    const hierarchical = document.docForm === "hierarchical_model";
    for (const [index, chunk] of prepared.entries()) {
      const segment: Segment = {
        id: this.ids.next(),
        documentId: document.id,
        position: index + 1,
        content: chunk.content,
        hitCount: 0,
        answer: null,
        wordCount: [...chunk.content].length,
        tokens: 0,
        keywords: [],
        indexNodeId: this.ids.next(),
        indexNodeHash: chunk.indexNodeHash,
        enabled: true,
        disabledAt: null,
        disabledBy: null,
        status: "completed",
        createdBy: document.createdBy,
        createdAt: now,
        updatedAt: now,
        updatedBy: null,
        indexingAt: now,
        completedAt: now,
        error: null,
        stoppedAt: null,
      };
      segments.push(segment);
      if (!hierarchical) units.push(segmentUnit(segment, chunk.terms));
      for (const [position, child] of chunk.children.entries()) {
        const row: ChildChunk = {
          id: this.ids.next(),
          segmentId: segment.id,
          documentId: document.id,
          position: position + 1,
          content: child.content,
          wordCount: [...child.content].length,
          indexNodeId: this.ids.next(),
          indexNodeHash: child.indexNodeHash,
          type: "automatic",
          createdBy: document.createdBy,
          createdAt: now,
          updatedAt: now,
          updatedBy: null,
        };
        children.push(row);
        if (hierarchical) units.push(childUnit(row, child.terms));
      }
    }
    return { segments, children, units };
  }
}

/** A failure of the text pipeline (not of the store): it ends the document in `error`. */
class PipelineFailure extends Error {}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The document's stored rule as the chunker reads it. */
function chunkingRuleOf(document: Document): { mode: ChunkingMode; rules: StoredRules; form: ChunkForm } {
  const read = validateProcessRule({ mode: document.processRule.mode, rules: document.processRule.rules });
  if (!read.ok) throw new PipelineFailure(read.message);
  return {
    mode: read.rule.mode,
    rules: read.rule.rules,
    form: document.docForm === "hierarchical_model" ? "hierarchical_model" : "text_model",
  };
}
