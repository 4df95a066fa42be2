import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { chunkDocument } from "../chunking/chunk-document.js";
import { splitChildChunks } from "../chunking/parent-child.js";
import type { Segment } from "../document.js";
import { InvalidParamError } from "../errors.js";
import { automaticChildren, editChildChunk, newChildChunk } from "./child-chunk-edit.js";
import { editSegment, newSegment } from "./segment-edit.js";

const write = {
  actor: "editor",
  now: 1_800_000_500,
  sha256: (text: string) => createHash("sha256").update(text).digest("hex"),
};
const hashOf = (content: string) => write.sha256(`${content}None`);

const stored = (over: Partial<Segment> = {}): Segment => ({
  ...newSegment(
    { content: "Old 👋", answer: null, keywords: ["old"] },
    { id: "s1", indexNodeId: "n1", documentId: "d1" },
    "text_model",
    { ...write, actor: "creator", now: 1_800_000_000 },
  ),
  position: 4,
  ...over,
});

describe("newSegment", () => {
  it("is completed and enabled, hashed as Dify hashes, counted in code points", () => {
    const segment = newSegment(
      { content: "Q 👋", answer: "Ä", keywords: undefined },
      { id: "s", indexNodeId: "n", documentId: "d" },
      "qa_model",
      write,
    );
    expect(segment).toMatchObject({
      wordCount: 4,
      keywords: [],
      indexNodeHash: hashOf("Q 👋"),
      status: "completed",
      enabled: true,
      createdBy: "editor",
      indexingAt: write.now,
      completedAt: write.now,
      updatedBy: null,
    });
  });
});

describe("editSegment", () => {
  it("disables an enabled segment and changes nothing else", () => {
    const edit = editSegment(
      stored(),
      { enabled: false, content: "ignored", regenerateChildChunks: false },
      "text_model",
      write,
    );
    expect(edit).toEqual({
      kind: "disabled",
      segment: { ...stored(), enabled: false, disabledAt: write.now, disabledBy: "editor" },
    });
  });

  it("refuses a disabled segment's update unless it is enabled by it", () => {
    const disabled = stored({ enabled: false, disabledAt: 1, disabledBy: "x" });
    for (const enabled of [undefined, false])
      expect(() =>
        editSegment(disabled, { enabled, regenerateChildChunks: false }, "text_model", write),
      ).toThrow(new InvalidParamError("segment", "Can't update disabled segment"));
    const edit = editSegment(disabled, { enabled: true, regenerateChildChunks: false }, "text_model", write);
    expect(edit.segment).toEqual({ ...stored(), enabled: true, disabledAt: null, disabledBy: null });
  });

  it("new content: a new hash and times, no old keywords; the same content keeps them", () => {
    const changed = editSegment(
      stored(),
      { content: "New", regenerateChildChunks: false },
      "text_model",
      write,
    );
    expect(changed).toEqual({
      kind: "edited",
      contentChanged: true,
      segment: {
        ...stored(),
        content: "New",
        wordCount: 3,
        keywords: [],
        indexNodeHash: hashOf("New"),
        indexingAt: write.now,
        completedAt: write.now,
        updatedAt: write.now,
        updatedBy: "editor",
      },
    });
    const same = editSegment(
      stored(),
      { content: "Old 👋", keywords: ["k"], regenerateChildChunks: false },
      "text_model",
      write,
    );
    expect(same).toEqual({
      kind: "edited",
      contentChanged: false,
      segment: { ...stored(), keywords: ["k"] },
    });
    const emptyKeywords = editSegment(
      stored(),
      { keywords: [], regenerateChildChunks: false },
      "text_model",
      write,
    );
    expect(emptyKeywords.segment.keywords).toEqual(["old"]);
  });

  it("keeps a QA segment's answer when none is sent, and counts it", () => {
    const qa = stored({ answer: "Yes", wordCount: 8 });
    expect(editSegment(qa, { regenerateChildChunks: false }, "qa_model", write).segment).toMatchObject({
      answer: "Yes",
      wordCount: 8,
    });
    expect(
      editSegment(qa, { answer: "No way", regenerateChildChunks: false }, "qa_model", write).segment,
    ).toMatchObject({
      answer: "No way",
      wordCount: 11,
    });
  });
});

describe("child chunks", () => {
  const rules = {
    pre_processing_rules: [],
    segmentation: { separator: "\n\n", max_tokens: 500, chunk_overlap: 0 },
    parent_mode: "paragraph" as const,
    subchunk_segmentation: { separator: ". ", max_tokens: 50, chunk_overlap: 0 },
  };

  it("re-splits a parent as indexing splits a full-doc parent of it", () => {
    const parent = "First a. First b. First c.";
    const drafts = splitChildChunks(parent, "hierarchical", rules);
    const [indexed] = chunkDocument(
      [parent],
      "hierarchical",
      { ...rules, parent_mode: "full-doc" },
      "hierarchical_model",
    );
    expect(drafts).toEqual(indexed!.children);
    expect(drafts.map((draft) => draft.content)).toEqual(["First a", "First b", "First c."]);
    let next = 0;
    const children = automaticChildren(
      stored(),
      drafts,
      () => ({ id: `c${++next}`, indexNodeId: `n${next}` }),
      write,
    );
    expect(children.map((child) => [child.id, child.position, child.type, child.indexNodeHash])).toEqual(
      drafts.map((draft, index) => [`c${index + 1}`, index + 1, "automatic", write.sha256(draft.hashSource)]),
    );
  });

  it("a caller's child chunk is customized, and so is an automatic one once rewritten", () => {
    const added = newChildChunk(stored(), "Mine 👋", { id: "c", indexNodeId: "n" }, write);
    expect(added).toMatchObject({
      type: "customized",
      wordCount: 6,
      indexNodeHash: hashOf("Mine 👋"),
      segmentId: "s1",
    });
    const automatic = { ...added, type: "automatic" as const };
    expect(editChildChunk(automatic, "Changed", write)).toEqual({
      ...automatic,
      content: "Changed",
      wordCount: 7,
      indexNodeHash: hashOf("Changed"),
      type: "customized",
      updatedAt: write.now,
      updatedBy: "editor",
    });
  });
});
