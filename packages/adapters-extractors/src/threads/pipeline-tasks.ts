import { createHash } from "node:crypto";
import { chunkDocument, prepareDrafts } from "@service-api/domain";
import type { ChunkingRule, Extraction, PreparedSegment } from "@service-api/ports";
import type { ExtractionLimits } from "../limits.js";

/** A pipeline thread's `workerData`. */
export interface PipelineThreadData {
  limits: Partial<ExtractionLimits>;
}

/** What a pipeline thread is asked: the file's bytes arrive in a buffer of their own (transferred). */
export type PipelineTask =
  | { kind: "extract"; bytes: Uint8Array; extension: string }
  | { kind: "chunk"; units: readonly string[]; rule: ChunkingRule };

export type PipelineAnswer = Extraction | PreparedSegment[];

/**
 * The units chunked as Dify chunks them, each chunk and child with its `index_node_hash` (the
 * SHA-256, hex, of the UTF-8 bytes of the draft's `hashSource`, which is not sent back) and its
 * search terms.
 */
export function prepareSegments(units: readonly string[], rule: ChunkingRule): PreparedSegment[] {
  return prepareDrafts(chunkDocument(units, rule.mode, rule.rules, rule.form), sha256);
}

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
