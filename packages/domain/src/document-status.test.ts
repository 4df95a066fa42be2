import { describe, expect, it } from "vitest";
import type { Document } from "./document.js";
import {
  applyStatusAction,
  ensureStatusActionAllowed,
  parseDisplayStatusFilter,
  parseDocumentStatusAction,
} from "./document-status.js";

const document = {
  name: "guide.txt",
  indexingStatus: "completed",
  enabled: true,
  archived: false,
} as Document;

describe("document status actions", () => {
  it("knows the four actions, case-sensitively", () => {
    expect(parseDocumentStatusAction("un_archive")).toBe("un_archive");
    expect(() => parseDocumentStatusAction("Enable")).toThrow(
      "Invalid action: Enable. Must be one of ['enable', 'disable', 'archive', 'un_archive']",
    );
  });

  it.each(["explode", undefined, 3, Symbol("enable")])("refuses %s with invalid_action", (action) => {
    expect(() => parseDocumentStatusAction(action)).toThrow(
      expect.objectContaining({
        code: "invalid_action",
        message: expect.stringMatching(/^Invalid action: /),
      }),
    );
  });

  it("refuses a value String cannot show with invalid_action, not what String throws", () => {
    const unshowable = [
      Object.create(null),
      {
        toString: () => {
          throw new Error("no text");
        },
      },
    ];
    for (const action of unshowable)
      expect(() => parseDocumentStatusAction(action)).toThrow(
        expect.objectContaining({ code: "invalid_action" }),
      );
  });

  it("disables only completed documents", () => {
    expect(() => ensureStatusActionAllowed({ ...document, indexingStatus: "indexing" }, "disable")).toThrow(
      "Document: guide.txt is not completed.",
    );
    expect(() =>
      ensureStatusActionAllowed({ ...document, indexingStatus: "indexing" }, "archive"),
    ).not.toThrow();
  });

  it("sets the flags, times and actor of each action, and leaves a document already there alone", () => {
    const disabled = applyStatusAction(document, "disable", "owner", 100);
    expect(disabled).toMatchObject({ enabled: false, disabledAt: 100, disabledBy: "owner", updatedAt: 100 });
    expect(applyStatusAction(disabled!, "disable", "owner", 200)).toBeUndefined();
    expect(applyStatusAction(disabled!, "enable", "owner", 200)).toMatchObject({
      enabled: true,
      disabledAt: null,
      disabledBy: null,
      updatedAt: 200,
    });
    const archived = applyStatusAction(document, "archive", null, 300);
    expect(archived).toMatchObject({ archived: true, archivedAt: 300, archivedBy: null });
    expect(applyStatusAction(archived!, "un_archive", "owner", 400)).toMatchObject({
      archived: false,
      archivedAt: null,
      archivedBy: null,
      updatedAt: 400,
    });
    expect(applyStatusAction(document, "enable", "owner", 1)).toBeUndefined();
    expect(applyStatusAction(document, "un_archive", "owner", 1)).toBeUndefined();
  });
});

describe("parseDisplayStatusFilter", () => {
  it.each([
    ["available", "available"],
    ["AVAILABLE", "available"],
    ["active", "available"],
    ["Enabled", "available"],
    ["queuing", "queuing"],
    ["archived", "archived"],
  ])("reads %j as %j", (value, status) => {
    expect(parseDisplayStatusFilter(value)).toBe(status);
  });

  it("reads nothing as no filter and refuses other values", () => {
    expect(parseDisplayStatusFilter(undefined)).toBeUndefined();
    for (const value of [null, 1, ["available"]])
      expect(() => parseDisplayStatusFilter(value)).toThrow(
        expect.objectContaining({ code: "invalid_param" }),
      );
    expect(() => parseDisplayStatusFilter("done")).toThrow(
      "status: must be one of queuing, indexing, paused, error, available, disabled, archived.",
    );
  });
});
