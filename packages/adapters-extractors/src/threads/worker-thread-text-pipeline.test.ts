import { createHash } from "node:crypto";
import { chunkDocument, prepareDrafts } from "@service-api/domain";
import type { ChunkingRule, PreparedSegment } from "@service-api/ports";
import { Document, Packer, Paragraph, Table, TableCell, TableRow } from "docx";
import { afterAll, describe, expect, it } from "vitest";
import { FormatTextExtractor } from "../format-text-extractor.js";
import { RULES, WALDEN } from "./pipeline-texts.test-support.js";
import {
  WorkerThreadTextPipeline,
  type WorkerThreadTextPipelineOptions,
} from "./worker-thread-text-pipeline.js";

// One pool of 2 threads for the tests that need no options of their own: threads start once.
const shared = new WorkerThreadTextPipeline({ threads: 2 });
const pipelines = [shared];

function pipeline(options?: WorkerThreadTextPipelineOptions) {
  if (options === undefined) return shared;
  const created = new WorkerThreadTextPipeline({ threads: 1, ...options });
  pipelines.push(created);
  return created;
}

afterAll(async () => {
  await Promise.all(pipelines.map((created) => created.close()));
});

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** What the pipeline should answer: `chunkDocument` in this thread, each draft's hashSource hashed. */
function expectedSegments(units: readonly string[], rule: ChunkingRule): PreparedSegment[] {
  return prepareDrafts(chunkDocument(units, rule.mode, rule.rules, rule.form), sha256);
}

async function docx(): Promise<Uint8Array> {
  const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] });
  const table = new Table({
    rows: [
      new TableRow({ children: [cell("Pond"), cell("Depth")] }),
      new TableRow({ children: [cell("Walden"), cell("102 ft")] }),
    ],
  });
  const children = [new Paragraph("Where I Lived"), table, new Paragraph("What I Lived For")];
  return new Uint8Array(await Packer.toBuffer(new Document({ sections: [{ children }] })));
}

describe("WorkerThreadTextPipeline reading files", () => {
  it("reads a text file in a thread, as FormatTextExtractor reads it", async () => {
    const file = { bytes: new TextEncoder().encode("Walden\r\nor, Life in the Woods\r\n"), extension: "txt" };
    expect(await pipeline().extract(file)).toEqual({ ok: true, units: ["Walden\nor, Life in the Woods\n"] });
  });

  it("reads a DOCX document in a thread, its table as markdown", async () => {
    const file = { bytes: await docx(), extension: "docx" };
    const extraction = await pipeline().extract(file);
    expect(extraction).toEqual(await new FormatTextExtractor().extract(file));
    expect(extraction).toMatchObject({ ok: true, units: [expect.stringContaining("| Walden | 102 ft |")] });
  });

  it("reads the thread's copy of the bytes: the caller's Buffer stays whole", async () => {
    const bytes = Buffer.from("Sounds\n");
    expect(await pipeline().extract({ bytes, extension: "txt" })).toEqual({ ok: true, units: ["Sounds\n"] });
    expect(bytes.toString()).toBe("Sounds\n");
    expect(bytes.buffer.byteLength).toBeGreaterThan(0);
  });

  it("reads with the limits it was given, refusing with the extractor's reason", async () => {
    const file = { bytes: new TextEncoder().encode(WALDEN), extension: "txt" };
    expect(await pipeline({ limits: { maxInputBytes: 1024 } }).extract(file)).toEqual({
      ok: false,
      reason: "The file is too large to read (over 1 KB).",
    });
  });
});

describe("WorkerThreadTextPipeline chunking", () => {
  it.each(Object.entries(RULES))(
    "chunks in %s mode as chunkDocument does, each hash the SHA-256 of hashSource",
    async (_mode, rule) => {
      const segments = await pipeline().chunk([WALDEN, "Solitude"], rule);
      expect(segments.length).toBeGreaterThan(2);
      expect(segments).toEqual(expectedSegments([WALDEN, "Solitude"], rule));
    },
  );

  it("hashes what Dify hashes (a chunk before its leading symbols went, plus None) and analyzes it for search", async () => {
    const [heading] = await pipeline().chunk([WALDEN], RULES.custom);
    expect(heading).toEqual({
      content: "Economy",
      indexNodeHash: sha256("# EconomyNone"),
      terms: ["economi"],
      children: [],
    });
  });

  it("hashes each child of a hierarchical parent", async () => {
    const segments = await pipeline().chunk([WALDEN], RULES.hierarchical);
    expect(segments.flatMap((segment) => segment.children).length).toBeGreaterThan(segments.length);
    expect(segments[1]?.children[2]).toEqual({
      content: "labor of my hands only.",
      indexNodeHash: sha256("labor of my hands only.None"),
      terms: ["labor", "hand"],
    });
  });

  it("answers many calls at once on 2 threads, each with its own answer", async () => {
    const twoThreads = pipeline({ threads: 2 });
    await twoThreads.chunk(["Reading"], RULES.automatic); // one thread up, the other not yet
    const texts = ["Baker Farm", "Higher Laws", "Brute Neighbors", "House-Warming"];
    const extractions = texts.map((text) =>
      twoThreads.extract({ bytes: new TextEncoder().encode(text), extension: "txt" }),
    );
    const chunkings = Object.values(RULES).map((rule) => twoThreads.chunk([WALDEN], rule));
    expect(await Promise.all(extractions)).toEqual(texts.map((text) => ({ ok: true, units: [text] })));
    expect(await Promise.all(chunkings)).toEqual(
      Object.values(RULES).map((rule) => expectedSegments([WALDEN], rule)),
    );
  });

  it("refuses a pool of no threads or a time limit of no time", () => {
    expect(() => new WorkerThreadTextPipeline({ threads: 0 })).toThrow(RangeError);
    expect(() => new WorkerThreadTextPipeline({ timeLimitMs: 0 })).toThrow(RangeError);
  });
});
