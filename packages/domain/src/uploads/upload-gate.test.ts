import { describe, expect, it } from "vitest";
import { InvalidParamError } from "../errors.js";
import {
  BlockedFileExtensionError,
  FilenameNotExistsError,
  FileTooLargeError,
  NoFileUploadedError,
  TooManyFilesError,
  UnsupportedFileTypeError,
} from "./upload-errors.js";
import { admitUpload, extensionOf, type SentFile, storedUploadName } from "./upload-gate.js";

const rules = { accepted: ["txt", "md", "pdf", "gz"], blocked: ["exe", "md"], maxBytes: 10 };
const file = (name: string, size = 3): SentFile => ({
  name,
  mimeType: undefined,
  bytes: new Uint8Array(size),
});

describe("extensionOf", () => {
  it("takes the last suffix, lowercased, as Python's splitext", () => {
    expect(extensionOf("a.tar.GZ")).toBe("gz");
    expect(extensionOf("notes.Md")).toBe("md");
    expect(extensionOf("README")).toBe("");
    expect(extensionOf(".env")).toBe("");
    expect(extensionOf("..env")).toBe("");
    expect(extensionOf("a.")).toBe("");
    expect(extensionOf("x..y")).toBe("y");
    expect(extensionOf(".hidden.txt")).toBe("txt");
  });
});

describe("storedUploadName", () => {
  it("keeps a name of 200 code points, cuts a longer one's stem to 200 and keeps its extension", () => {
    const emoji200 = `${"😀".repeat(196)}.txt`;
    expect(storedUploadName(emoji200, "txt")).toBe(emoji200);
    const long = `${"a".repeat(150)}.${"b".repeat(60)}.txt`;
    expect(storedUploadName(long, "txt")).toBe(`${"a".repeat(150)}.txt`);
    expect(storedUploadName(`${"é".repeat(300)}.pdf`, "pdf")).toBe(`${"é".repeat(200)}.pdf`);
  });
});

describe("admitUpload", () => {
  it("admits one accepted file within the limit, with its stored name and extension", () => {
    const admitted = admitUpload([file("Report.PDF", 10)], rules);
    expect(admitted).toMatchObject({ storedName: "Report.PDF", extension: "pdf" });
  });

  it("refuses in Dify's order: none, two, no name, a path, blocked, not accepted, too large", () => {
    expect(() => admitUpload([], rules)).toThrow(NoFileUploadedError);
    expect(() => admitUpload([file(""), file("a.txt")], rules)).toThrow(TooManyFilesError);
    expect(() => admitUpload([file("", 99)], rules)).toThrow(FilenameNotExistsError);
    expect(() => admitUpload([file("a/b.exe", 99)], rules)).toThrow(InvalidParamError);
    expect(() => admitUpload([file("a\\b.txt")], rules)).toThrow("Filename contains invalid characters");
    expect(() => admitUpload([file("run.exe", 99)], rules)).toThrow(BlockedFileExtensionError);
    expect(() => admitUpload([file("notes.md")], rules)).toThrow(BlockedFileExtensionError);
    expect(() => admitUpload([file("page.html", 99)], rules)).toThrow(UnsupportedFileTypeError);
    expect(() => admitUpload([file("README")], rules)).toThrow(UnsupportedFileTypeError);
    expect(() => admitUpload([file("a.txt", 11)], rules)).toThrow(FileTooLargeError);
  });

  it("takes the part named file as the upload, and counts every file part", () => {
    const attachment = { ...file("a.txt"), field: "attachment" };
    expect(() => admitUpload([attachment], rules)).toThrow(NoFileUploadedError);
    expect(() => admitUpload([{ ...file("a.txt"), field: "file" }, attachment], rules)).toThrow(
      TooManyFilesError,
    );
    expect(admitUpload([{ ...file("a.txt"), field: "file" }], rules).storedName).toBe("a.txt");
  });

  it("refuses a file cut off at the limit as too large, in its turn after the extension", () => {
    const cut = { ...file("a.txt", 10), truncated: true };
    expect(() => admitUpload([cut], rules)).toThrow(FileTooLargeError);
    expect(() => admitUpload([{ ...cut, name: "a.exe" }], rules)).toThrow(BlockedFileExtensionError);
  });

  it("says the limit in MB", () => {
    expect(() =>
      admitUpload([file("a.txt", 16 * 1024 * 1024)], { ...rules, maxBytes: 15 * 1024 * 1024 }),
    ).toThrow("File size exceeded. The limit is 15 MB.");
  });
});

describe("uploadMimeType", () => {
  it("keeps a type that says something, and takes the extension's for a generic one", async () => {
    const { uploadMimeType } = await import("./mime-types.js");
    expect(uploadMimeType("application/pdf", "pdf")).toBe("application/pdf");
    expect(uploadMimeType("Text/HTML", "html")).toBe("text/html");
    expect(uploadMimeType("application/octet-stream", "pdf")).toBe("application/pdf");
    expect(uploadMimeType("text/plain", "docx")).toContain("wordprocessingml");
    expect(uploadMimeType(undefined, "md")).toBe("text/markdown");
    expect(uploadMimeType("text/plain", "txt")).toBe("text/plain");
    expect(uploadMimeType(undefined, "zzz")).toBe("application/octet-stream");
    // No type a header could carry: the extension's.
    expect(uploadMimeType("text/html\u0001", "txt")).toBe("text/plain");
    expect(uploadMimeType("text/html; charset=utf-8", "html")).toBe("text/html");
    expect(uploadMimeType("imagé/png", "pdf")).toBe("application/pdf");
  });
});
