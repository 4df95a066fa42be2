import { describe, expect, it } from "vitest";
import { archiveNames } from "./archive-names.js";

describe("archiveNames", () => {
  it("keeps distinct names and numbers the later of equal ones before their extension", () => {
    expect(archiveNames(["a.txt", "b.txt", "a.txt", "a.txt", "README", "README"])).toEqual([
      "a.txt",
      "b.txt",
      "a (2).txt",
      "a (3).txt",
      "README",
      "README (2)",
    ]);
  });

  it("skips a number a file already holds, and counts names equal but for case as equal", () => {
    expect(archiveNames(["a.txt", "a (2).txt", "A.TXT"])).toEqual(["a.txt", "a (2).txt", "A (3).TXT"]);
  });

  it("keeps every entry at the archive's root", () => {
    expect(archiveNames(["../../etc/passwd", "a\\b.txt", "C:notes.txt", "", "..", ".env"])).toEqual([
      ".._.._etc_passwd",
      "a_b.txt",
      "C_notes.txt",
      "file",
      "_",
      ".env",
    ]);
  });
});
