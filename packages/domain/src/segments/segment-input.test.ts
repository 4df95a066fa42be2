import { describe, expect, it } from "vitest";
import { InvalidParamError, ProviderNotInitializeError } from "../errors.js";
import { readSegmentChange, readSegmentDrafts } from "./segment-input.js";

const refusal = (read: () => unknown) => {
  try {
    read();
  } catch (error) {
    return error instanceof InvalidParamError ? error.message : error;
  }
  return "accepted";
};

describe("readSegmentDrafts", () => {
  it("reads each chunk's content, QA answer and keywords (each once, in their order)", () => {
    expect(
      readSegmentDrafts([{ content: "a", keywords: ["x", "y", "x"], answer: "dropped" }], "text_model", 10),
    ).toEqual([{ content: "a", answer: null, keywords: ["x", "y"] }]);
    expect(readSegmentDrafts([{ content: "Q", answer: "A" }], "qa_model", 0)).toEqual([
      { content: "Q", answer: "A", keywords: undefined },
    ]);
  });

  it("refuses in Dify's order: presence, the limit, then each item (the answer before the content)", () => {
    expect(refusal(() => readSegmentDrafts(undefined, "text_model", 1))).toBe("Segments is required");
    expect(refusal(() => readSegmentDrafts([], "text_model", 1))).toBe("Segments is required");
    expect(refusal(() => readSegmentDrafts([{ content: "" }, { content: "b" }], "text_model", 1))).toBe(
      "Exceeded maximum segments limit of 1.",
    );
    expect(refusal(() => readSegmentDrafts([{ content: "" }, { content: "b" }], "text_model", 0))).toBe(
      "Content is empty",
    );
    expect(refusal(() => readSegmentDrafts([{ content: "" }], "qa_model", 0))).toBe("Answer is required");
    expect(refusal(() => readSegmentDrafts([{ content: "", answer: "\u2003" }], "qa_model", 0))).toBe(
      "Answer is empty",
    );
    // Python's strip: every Unicode space is blank.
    expect(refusal(() => readSegmentDrafts([{ content: "\u00a0\u3000\n" }], "text_model", 0))).toBe(
      "Content is empty",
    );
    expect(refusal(() => readSegmentDrafts([{ content: "ok", attachment_ids: [] }], "text_model", 0))).toBe(
      "accepted",
    );
  });
});

describe("readSegmentChange", () => {
  it("takes only what is sent; a QA answer only in a QA document", () => {
    expect(readSegmentChange({}, "text_model")).toEqual({ regenerateChildChunks: false });
    expect(
      readSegmentChange(
        { content: "c", answer: "a", keywords: [], enabled: true, regenerate_child_chunks: true },
        "text_model",
      ),
    ).toEqual({ content: "c", keywords: [], enabled: true, regenerateChildChunks: true });
    expect(readSegmentChange({ answer: "a", content: null }, "qa_model")).toEqual({
      answer: "a",
      regenerateChildChunks: false,
    });
  });

  it("refuses blank content, a summary (it needs a model) and fields of the wrong type", () => {
    expect(refusal(() => readSegmentChange({ content: "" }, "text_model"))).toBe("Content is empty");
    expect(refusal(() => readSegmentChange({ enabled: 1 }, "text_model"))).toBe(
      "enabled: must be true or false.",
    );
    expect(refusal(() => readSegmentChange({ summary: "s" }, "text_model"))).toBeInstanceOf(
      ProviderNotInitializeError,
    );
    expect(refusal(() => readSegmentChange({ summary: "" }, "text_model"))).toBe("accepted");
    expect(refusal(() => readSegmentChange("text", "text_model"))).toBe("segment: must be an object.");
  });
});
