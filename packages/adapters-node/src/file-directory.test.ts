import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { anUploadFile, createInMemoryStore, describeFileStoreContract } from "@service-api/ports/testing";
import { afterAll, describe, expect, it } from "vitest";
import { DirectoryFileStore } from "./directory-file-store.js";
import { type DirectoryEntry, FileDirectory, FileDirectoryError } from "./file-directory.js";

const root = mkdtempSync(join(tmpdir(), "service-api-file-directory-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let made = 0;
const aDirectory = () => FileDirectory.open(join(root, `files-${++made}`));
const bytesOf = (text: string) => new TextEncoder().encode(text);

async function entriesOf(directory: FileDirectory): Promise<DirectoryEntry[]> {
  const entries: DirectoryEntry[] = [];
  for await (const entry of directory.entries()) entries.push(entry);
  return entries;
}

// The in-memory store's rows, the bytes in a directory: the port's contract without a database.
describe("DirectoryFileStore over the in-memory store", () => {
  describeFileStoreContract(async () => {
    const store = createInMemoryStore();
    const directory = await aDirectory();
    store.repositories.files = new DirectoryFileStore(directory, store.repositories.documents);
    return store;
  });
});

describe("FileDirectory", () => {
  it("keeps a UUID's bytes at {first two characters}/{id}, replaced whole, with no temporary file left", async () => {
    const directory = await aDirectory();
    const fileId = globalThis.crypto.randomUUID();
    await directory.write(fileId, bytesOf("first"));
    await directory.write(fileId, bytesOf("second"));
    expect(directory.pathOf(fileId)).toBe(join(directory.path, fileId.slice(0, 2), fileId));
    expect(readdirSync(join(directory.path, fileId.slice(0, 2)))).toEqual([fileId]);
    expect(new TextDecoder().decode(await directory.read(fileId))).toBe("second");
    expect(await directory.read(globalThis.crypto.randomUUID())).toBeUndefined();
  });

  it.each(["../../escape", "a/b", ".hidden", "ABCDEF00-0000-4000-8000-000000000000", "x", "naïve 👋"])(
    "keeps the id %j inside the directory, under a name of hex digits, and lists it back",
    async (fileId) => {
      const directory = await aDirectory();
      await directory.write(fileId, bytesOf(fileId));
      const path = directory.pathOf(fileId);
      expect(path.startsWith(`${directory.path}/_`)).toBe(true);
      expect(path.slice(directory.path.length + 1)).toMatch(/^_[0-9a-f]\/_[0-9a-f]+$/);
      expect(new TextDecoder().decode(await directory.read(fileId))).toBe(fileId);
      expect((await entriesOf(directory)).map((entry) => entry.fileId)).toEqual([fileId]);
    },
  );

  it("lists the files and writes' temporary files, and leaves anything else out", async () => {
    const directory = await aDirectory();
    const fileId = globalThis.crypto.randomUUID();
    await directory.write(fileId, bytesOf("kept"));
    const staged = await directory.stage(globalThis.crypto.randomUUID(), bytesOf("aside"));
    writeFileSync(join(directory.path, "notes.txt"), "");
    mkdirSync(join(directory.path, "backups"));
    writeFileSync(join(directory.path, "backups", fileId), "");
    writeFileSync(join(directory.path, fileId.slice(0, 2), "zz-not-in-its-folder"), "");
    mkdirSync(join(directory.path, fileId.slice(0, 2), "nested-folder"));
    const entries = await entriesOf(directory);
    expect(entries.map((entry) => [entry.path, entry.fileId]).sort()).toEqual(
      [
        [directory.pathOf(fileId), fileId],
        [staged.path, undefined],
      ].sort(),
    );
  });

  it("removes an entry only while it is the file that was listed", async () => {
    const directory = await aDirectory();
    const fileId = globalThis.crypto.randomUUID();
    await directory.write(fileId, bytesOf("old"));
    const [listed] = await entriesOf(directory);
    await directory.write(fileId, bytesOf("written again"));
    expect(await directory.remove(listed!)).toBe(false);
    expect(await directory.has(fileId)).toBe(true);
    const [again] = await entriesOf(directory);
    expect(await directory.remove(again!)).toBe(true);
    expect(await directory.has(fileId)).toBe(false);
    expect(await directory.remove(again!)).toBe(false);
  });

  it("makes a directory that is missing, and refuses a file with a message naming it", async () => {
    const nested = join(root, `missing-${++made}`, "files");
    expect((await FileDirectory.open(nested)).path).toBe(nested);
    expect(existsSync(nested)).toBe(true);
    const file = join(root, `a-file-${++made}`);
    writeFileSync(file, "");
    const opening = FileDirectory.open(file);
    await expect(opening).rejects.toBeInstanceOf(FileDirectoryError);
    await expect(opening).rejects.toThrow(`The files directory ${file} is not a directory: a file is there`);
    await expect(FileDirectory.open(join(file, "below"))).rejects.toThrow(
      `The files directory ${join(file, "below")} cannot be made`,
    );
  });

  // As root, a folder's mode refuses nothing: /proc refuses every process a new file.
  const unwritable =
    process.getuid?.() === 0 ? (existsSync("/proc/self") ? "/proc/self" : undefined) : "mode";
  it.skipIf(unwritable === undefined)("refuses a directory this process cannot write in", async () => {
    let path = "/proc/self";
    if (unwritable === "mode") {
      path = join(root, `read-only-${++made}`);
      mkdirSync(path, { mode: 0o500 });
    }
    await expect(FileDirectory.open(path)).rejects.toThrow(
      `The files directory ${path} cannot be written by this process`,
    );
  });
});

describe("DirectoryFileStore.sweep", () => {
  const HOUR = 3_600_000;

  it("removes old temporary files and bytes without a row, and nothing young, kept or foreign", async () => {
    const store = createInMemoryStore();
    const directory = await aDirectory();
    const files = new DirectoryFileStore(directory, store.repositories.documents);
    const kept = anUploadFile("member");
    await store.repositories.documents.saveUploadFile(globalThis.crypto.randomUUID(), kept);
    await files.put(kept.id, bytesOf("kept"));
    const orphan = globalThis.crypto.randomUUID();
    await directory.write(orphan, bytesOf("no row"));
    const leftover = await directory.stage(globalThis.crypto.randomUUID(), bytesOf("never finished"));
    writeFileSync(join(directory.path, "notes.txt"), "");
    const now = Date.now();
    expect(await files.sweep(HOUR, { now })).toBe(0);
    const anHourAgo = (now - HOUR - 1_000) / 1_000;
    for (const path of [directory.pathOf(kept.id), directory.pathOf(orphan), leftover.path])
      utimesSync(path, anHourAgo, anHourAgo);
    expect(await files.sweep(HOUR, { now })).toBe(2);
    expect(await directory.has(orphan)).toBe(false);
    expect(existsSync(leftover.path)).toBe(false);
    expect(new TextDecoder().decode(await files.get(kept.id))).toBe("kept");
    expect(existsSync(join(directory.path, "notes.txt"))).toBe(true);
  });

  it("leaves a write's temporary file for a minute, whatever the grace: its write is under way", async () => {
    const store = createInMemoryStore();
    const directory = await aDirectory();
    const files = new DirectoryFileStore(directory, store.repositories.documents);
    const writing = await directory.stage(globalThis.crypto.randomUUID(), bytesOf("under way"));
    expect(await files.sweep(0, { now: Date.now() + 1_000 })).toBe(0);
    expect(existsSync(writing.path)).toBe(true);
    expect(await files.sweep(0, { now: Date.now() + 61_000 })).toBe(1);
    expect(existsSync(writing.path)).toBe(false);
  });

  it("stops when its signal aborts", async () => {
    const store = createInMemoryStore();
    const directory = await aDirectory();
    await directory.write(globalThis.crypto.randomUUID(), bytesOf("no row"));
    const files = new DirectoryFileStore(directory, store.repositories.documents);
    expect(await files.sweep(0, { now: Date.now() + 1_000, signal: AbortSignal.abort() })).toBe(0);
    expect(await files.sweep(0, { now: Date.now() + 1_000 })).toBe(1);
  });
});
