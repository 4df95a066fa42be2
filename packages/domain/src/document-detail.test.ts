import { describe, expect, it } from "vitest";
import type { Dataset } from "./dataset.js";
import type { Document } from "./document.js";
import { applyMetadataView, documentDetail, parseMetadataView } from "./document-detail.js";
import { InvalidMetadataError } from "./errors.js";
import { builtInEntries, builtInFieldUsage } from "./metadata.js";

const rule = { id: "r1", mode: "custom", rules: { segmentation: { separator: "\n", max_tokens: 500 } } };
const dataset: Dataset = {
  id: "d1",
  workspaceId: "w1",
  name: "Handbook",
  enableApi: true,
  builtInFieldEnabled: false,
  processRule: { ...rule, id: "r0", mode: "automatic" },
  description: "",
  indexingTechnique: "economy",
  permission: "all_team_members",
  retrievalModel: null,
  createdBy: null,
  updatedBy: null,
  createdAt: 1,
  updatedAt: 1,
};
const document: Document = {
  id: "doc1",
  datasetId: "d1",
  position: 1,
  dataSourceType: "upload_file",
  uploadFileId: "f1",
  processRule: rule,
  name: "guide.txt",
  createdFrom: "api",
  createdBy: "m1",
  createdAt: 1_700_000_000,
  updatedAt: null,
  tokens: 10,
  wordCount: 8,
  indexingStatus: "completed",
  isPaused: false,
  error: null,
  enabled: true,
  disabledAt: null,
  disabledBy: null,
  archived: false,
  archivedAt: null,
  archivedBy: null,
  docForm: "text_model",
  docLanguage: "English",
  docType: null,
  completedAt: 1_700_000_060,
  indexingLatency: 60,
  summaryIndexStatus: null,
  needSummary: false,
  batch: null,
  processingStartedAt: null,
  parsingCompletedAt: null,
  cleaningCompletedAt: null,
  splittingCompletedAt: null,
  pausedAt: null,
  stoppedAt: null,
};
const metadata = [{ id: "f-author", name: "author", type: "string" as const, value: "Ada" }];
const detail = documentDetail({
  document,
  dataset,
  uploadFile: undefined,
  chunks: { count: 3, hitCount: 7, characters: 100 },
  metadata,
});

describe("parseMetadataView", () => {
  it("defaults to all", () => expect(parseMetadataView(undefined)).toBe("all"));
  it.each(["all", "only", "without"])("accepts %s", (value) => expect(parseMetadataView(value)).toBe(value));
  it.each(["", "ALL", "none", " only"])("rejects %j with invalid_metadata naming the value", (value) => {
    expect(() => parseMetadataView(value)).toThrow(new InvalidMetadataError(value));
    expect(() => parseMetadataView(value)).toThrow(`Invalid metadata value: ${value}`);
  });
});

/** Values `String` cannot turn into text: it throws a TypeError, or what their `toString` throws. */
const UNSHOWABLE = [
  Object.create(null),
  {
    toString: () => {
      throw new Error("no text");
    },
  },
];

describe("parseMetadataView of a value that is not text", () => {
  it("refuses a value String cannot show with invalid_metadata, not what String throws", () => {
    for (const value of UNSHOWABLE) expect(() => parseMetadataView(value)).toThrow(InvalidMetadataError);
  });

  it.each([null, 1, Symbol("all")])("refuses %s with invalid_metadata", (value) => {
    expect(() => parseMetadataView(value)).toThrow(InvalidMetadataError);
  });
});

describe("documentDetail", () => {
  it("computes chunk figures, flooring the average length", () => {
    expect(detail).toMatchObject({ segmentCount: 3, hitCount: 7, averageSegmentLength: 33 });
  });

  it("has an average length of 0 without chunks", () => {
    const empty = documentDetail({
      document,
      dataset,
      uploadFile: undefined,
      chunks: { count: 0, hitCount: 0, characters: 0 },
      metadata,
    });
    expect(empty.averageSegmentLength).toBe(0);
  });

  it("shows the dataset's rule and the document's own rule", () => {
    expect(detail.processRuleId).toBe("r1");
    expect(detail.datasetProcessRule?.id).toBe("r0");
    expect(detail.documentProcessRule).toBe(rule);
  });

  it("derives the display status", () => {
    expect(detail.displayStatus).toBe("available");
  });

  it("does not leak storage-only fields", () => {
    expect(Object.keys(detail)).not.toEqual(expect.arrayContaining(["datasetId"]));
    for (const key of ["datasetId", "uploadFileId", "isPaused", "wordCount", "processRule"]) {
      expect(detail).not.toHaveProperty(key);
    }
  });
});

describe("applyMetadataView", () => {
  it("keeps everything for all", () => {
    expect(applyMetadataView(detail, "all").document).toEqual(detail);
  });

  it("keeps exactly id, doc type and metadata for only", () => {
    const { document: only } = applyMetadataView(detail, "only");
    expect(only).toEqual({ id: "doc1", docType: null, docMetadata: metadata });
  });

  it("drops only the metadata for without, keeping the doc type", () => {
    const { document: without } = applyMetadataView(detail, "without");
    expect(without).not.toHaveProperty("docMetadata");
    expect(without).toHaveProperty("docType", null);
    expect(Object.keys(without).length).toBe(Object.keys(detail).length - 1);
  });
});

describe("built-in metadata", () => {
  it("describes a document in five string entries", () => {
    expect(builtInEntries({ ...document, updatedAt: 1_700_000_100 }, "Ada")).toEqual([
      { id: "built-in", name: "document_name", type: "string", value: "guide.txt" },
      { id: "built-in", name: "uploader", type: "string", value: "Ada" },
      { id: "built-in", name: "upload_date", type: "time", value: "1700000000" },
      { id: "built-in", name: "last_update_date", type: "time", value: "1700000100" },
      { id: "built-in", name: "source", type: "string", value: "file_upload" },
    ]);
  });

  it("names third-party imports notion and falls back to the creation date", () => {
    const entries = builtInEntries({ ...document, dataSourceType: "thirdparty_import" }, null);
    expect(entries.find((entry) => entry.name === "source")?.value).toBe("notion");
    expect(entries.find((entry) => entry.name === "uploader")?.value).toBeNull();
    expect(entries.find((entry) => entry.name === "last_update_date")?.value).toBe("1700000000");
  });

  it("counts every document of the dataset for each built-in field", () => {
    expect(builtInFieldUsage(4).map((field) => field.count)).toEqual([4, 4, 4, 4, 4]);
  });
});
