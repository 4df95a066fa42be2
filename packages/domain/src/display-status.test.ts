import { describe, expect, it } from "vitest";
import { displayStatus } from "./display-status.js";
import type { IndexingStatus } from "./document.js";

const active = { isPaused: false, archived: false, enabled: true };

describe("displayStatus", () => {
  it.each<[IndexingStatus, string]>([
    ["waiting", "queuing"],
    ["parsing", "indexing"],
    ["cleaning", "indexing"],
    ["splitting", "indexing"],
    ["indexing", "indexing"],
    ["paused", "paused"],
    ["error", "error"],
    ["completed", "available"],
  ])("shows %s as %s", (indexingStatus, expected) => {
    expect(displayStatus({ ...active, indexingStatus })).toBe(expected);
  });

  it("shows a paused document that is still indexing as paused", () => {
    expect(displayStatus({ ...active, indexingStatus: "splitting", isPaused: true })).toBe("paused");
  });

  it("keeps waiting documents queuing even when paused", () => {
    expect(displayStatus({ ...active, indexingStatus: "waiting", isPaused: true })).toBe("queuing");
  });

  it("does not let a pause hide a finished or failed document", () => {
    expect(displayStatus({ ...active, indexingStatus: "completed", isPaused: true })).toBe("available");
    expect(displayStatus({ ...active, indexingStatus: "error", isPaused: true })).toBe("error");
  });

  it("shows completed documents as archived before disabled", () => {
    expect(displayStatus({ ...active, indexingStatus: "completed", archived: true, enabled: false })).toBe(
      "archived",
    );
    expect(displayStatus({ ...active, indexingStatus: "completed", enabled: false })).toBe("disabled");
  });

  it("has no display status for an unknown indexing status", () => {
    expect(displayStatus({ ...active, indexingStatus: "frozen" as IndexingStatus })).toBeNull();
  });
});
