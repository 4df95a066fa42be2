import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DirectoryFileStore, FileDirectory, FileDirectoryError } from "@service-api/adapters-node";
import {
  createTestDatabase,
  createTestSchema,
  requirePostgresForTests,
  type TestDatabase,
} from "@service-api/adapters-postgres/testing";
import type { Store } from "@service-api/ports";
import {
  aDataset,
  aDocument,
  anUploadFile,
  aWorkspace,
  createInMemoryStore,
  describeFileStoreContract,
  describeStoreCloseContract,
  describeStoreIsolationContract,
  describeStoreTransactionContract,
} from "@service-api/ports/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { openStore } from "./open-store.js";
import { DEFAULT_FILE_SWEEP, withFileDirectory } from "./with-file-directory.js";

const postgres = await requirePostgresForTests();
const root = mkdtempSync(join(tmpdir(), "service-api-files-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let made = 0;
const aFolder = () => join(root, `files-${++made}`);

/** A file's row, in a workspace and dataset of its own, named by a document. */
async function aStoredFile(store: Store) {
  const { workspaces, datasets, documents } = store.repositories;
  const workspace = aWorkspace();
  await workspaces.save(workspace);
  const dataset = aDataset(workspace.id);
  await datasets.save(dataset);
  const file = anUploadFile("member");
  await documents.saveUploadFile(workspace.id, file);
  const document = aDocument(dataset.id, { uploadFileId: file.id });
  await documents.save(document);
  return { workspace, dataset, file, document };
}

const GRACE = DEFAULT_FILE_SWEEP.graceMs;
const text = (bytes: Uint8Array | undefined) => bytes && new TextDecoder().decode(bytes);

/** The contracts and the directory's own behaviour, on stores whose databases `newDatabaseUrl` makes. */
function describeWithFilesDir(newDatabaseUrl: () => Promise<string>) {
  const openWithFiles = async () => openStore({ databaseUrl: await newDatabaseUrl(), filesDir: aFolder() });
  describeFileStoreContract(openWithFiles);
  describeStoreTransactionContract(openWithFiles);
  describeStoreIsolationContract(openWithFiles);
  describeStoreCloseContract(openWithFiles);

  describe("a store with a files directory", () => {
    let opened: Store[] = [];
    afterEach(async () => {
      await Promise.all(opened.map((store) => store.close()));
      opened = [];
    });
    /** A store with `filesDir` (without, the bytes in the database), and a sweeper of that directory. */
    async function open(filesDir: string | undefined, databaseUrl?: string) {
      const url = databaseUrl ?? (await newDatabaseUrl());
      const store = await openStore({ databaseUrl: url, ...(filesDir !== undefined && { filesDir }) });
      opened.push(store);
      const directory = filesDir === undefined ? undefined : await FileDirectory.open(filesDir);
      const sweeper = directory && new DirectoryFileStore(directory, store.repositories.documents);
      return { store, url, sweeper: sweeper! };
    }

    it("keeps the bytes at {dir}/{first two characters}/{id}, and none in the database", async () => {
      const filesDir = aFolder();
      const { store, url } = await open(filesDir);
      const { file } = await aStoredFile(store);
      await store.repositories.files.put(file.id, new TextEncoder().encode("on disk"));
      expect(readFileSync(join(filesDir, file.id.slice(0, 2), file.id), "utf8")).toBe("on disk");
      expect(readdirSync(join(filesDir, file.id.slice(0, 2)))).toEqual([file.id]);
      const { store: database } = await open(undefined, url);
      expect(await database.repositories.files.get(file.id)).toBeUndefined();
      expect(text(await store.snapshot(({ files }) => files.get(file.id)))).toBe("on disk");
    });

    it("leaves nothing readable of a transaction that rejects after its put, and sweeps it after the grace", async () => {
      const filesDir = aFolder();
      const { store, sweeper } = await open(filesDir);
      const { workspace } = await aStoredFile(store);
      const file = anUploadFile("member");
      const failure = new Error("roll back");
      await expect(
        store.transaction(async ({ documents, files }) => {
          await documents.saveUploadFile(workspace.id, file);
          await files.put(file.id, new Uint8Array([1, 2, 3]));
          expect(await files.get(file.id)).toEqual(new Uint8Array([1, 2, 3]));
          throw failure;
        }),
      ).rejects.toBe(failure);
      const path = join(filesDir, file.id.slice(0, 2), file.id);
      expect(existsSync(path)).toBe(true);
      expect(await store.repositories.files.get(file.id)).toBeUndefined();
      expect(await sweeper.sweep(GRACE, { now: Date.now() })).toBe(0);
      expect(existsSync(path)).toBe(true);
      expect(await sweeper.sweep(GRACE, { now: Date.now() + GRACE + 1_000 })).toBe(1);
      expect(existsSync(path)).toBe(false);
    });

    it("keeps a file's bytes when a transaction that replaced them rejects, and the new ones when it resolves", async () => {
      const filesDir = aFolder();
      const { store } = await open(filesDir);
      const { file } = await aStoredFile(store);
      const { files } = store.repositories;
      await files.put(file.id, new TextEncoder().encode("first"));
      const replacing = (outcome: "rejects" | "resolves") =>
        store.transaction(async ({ files }) => {
          await files.put(file.id, new TextEncoder().encode("second"));
          expect(text(await files.get(file.id))).toBe("second");
          if (outcome === "rejects") throw new Error("roll back");
        });
      await expect(replacing("rejects")).rejects.toThrow("roll back");
      expect(text(await files.get(file.id))).toBe("first");
      await replacing("resolves");
      expect(text(await files.get(file.id))).toBe("second");
      // No write's temporary file is left beside it.
      expect(readdirSync(join(filesDir, file.id.slice(0, 2)))).toEqual([file.id]);
    });

    it("sweeps the bytes of a deleted file's row, and keeps the others", async () => {
      const filesDir = aFolder();
      const { store, sweeper } = await open(filesDir);
      const gone = await aStoredFile(store);
      const kept = await aStoredFile(store);
      await store.repositories.files.put(gone.file.id, new Uint8Array([1]));
      await store.repositories.files.put(kept.file.id, new Uint8Array([2]));
      await store.repositories.documents.delete(gone.dataset.id, gone.document.id, { archived: false });
      expect(existsSync(join(filesDir, gone.file.id.slice(0, 2), gone.file.id))).toBe(true);
      expect(await sweeper.sweep(GRACE, { now: Date.now() + GRACE + 1_000 })).toBe(1);
      expect(existsSync(join(filesDir, gone.file.id.slice(0, 2), gone.file.id))).toBe(false);
      expect(await store.repositories.files.get(kept.file.id)).toEqual(new Uint8Array([2]));
    });

    it("sweeps as it opens", async () => {
      const filesDir = aFolder();
      const { store, url } = await open(filesDir);
      const { file, dataset, document } = await aStoredFile(store);
      await store.repositories.files.put(file.id, new Uint8Array([1]));
      await store.repositories.documents.delete(dataset.id, document.id, { archived: false });
      const path = join(filesDir, file.id.slice(0, 2), file.id);
      const longAgo = (Date.now() - GRACE - 60_000) / 1_000;
      utimesSync(path, longAgo, longAgo);
      await open(filesDir, url);
      await vi.waitFor(() => expect(existsSync(path)).toBe(false));
    });

    it("reads the bytes stored in the database before FILES_DIR was set, and puts new ones on disk", async () => {
      const filesDir = aFolder();
      const { store: before, url } = await open(undefined);
      const { file } = await aStoredFile(before);
      await before.repositories.files.put(file.id, new TextEncoder().encode("in the database"));
      const { store } = await open(filesDir, url);
      expect(text(await store.repositories.files.get(file.id))).toBe("in the database");
      expect(existsSync(join(filesDir, file.id.slice(0, 2)))).toBe(false);
      await store.repositories.files.put(file.id, new TextEncoder().encode("on disk"));
      expect(text(await store.transaction(({ files }) => files.get(file.id)))).toBe("on disk");
      expect(readFileSync(join(filesDir, file.id.slice(0, 2), file.id), "utf8")).toBe("on disk");
    });

    it("refuses a file's bytes written through a snapshot", async () => {
      const { store } = await open(aFolder());
      const { file } = await aStoredFile(store);
      await expect(store.snapshot(({ files }) => files.put(file.id, new Uint8Array([1])))).rejects.toThrow(
        /snapshot only reads/,
      );
      expect(await store.repositories.files.get(file.id)).toBeUndefined();
    });
  });
}

describe("on SQLite", () => {
  describeWithFilesDir(async () => join(root, `store-${++made}.sqlite`));
});

describe.skipIf(!postgres)("on PostgreSQL", () => {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.drop());
  describeWithFilesDir(() => createTestSchema(database!.url));
});

describe("openStore with a files directory", () => {
  it("makes the directory when it is missing", async () => {
    const filesDir = join(aFolder(), "nested", "files");
    const store = await openStore({ databaseUrl: join(root, `store-${++made}.sqlite`), filesDir });
    await store.close();
    expect(existsSync(filesDir)).toBe(true);
  });

  it("refuses a FILES_DIR that is a file, naming it, before it opens the database", async () => {
    const filesDir = join(root, `not-a-folder-${++made}`);
    writeFileSync(filesDir, "");
    const databaseUrl = join(root, `store-${++made}.sqlite`);
    const opening = openStore({ databaseUrl, filesDir });
    await expect(opening).rejects.toBeInstanceOf(FileDirectoryError);
    await expect(opening).rejects.toThrow(
      `The files directory ${filesDir} is not a directory: a file is there`,
    );
    expect(existsSync(databaseUrl)).toBe(false);
  });
});

describe("withFileDirectory's sweeps", () => {
  it("sweeps every few moments until the store closes, and tells the monitor of a sweep that failed", async () => {
    const directory = await FileDirectory.open(aFolder());
    const failures: [string, Error][] = [];
    const monitor = {
      unavailable() {},
      available() {},
      connectionLost() {},
      backgroundTaskFailed: (task: string, error: Error) => failures.push([task, error]),
    };
    const inMemory = createInMemoryStore();
    const store = withFileDirectory(inMemory, directory, { monitor, timing: { everyMs: 10, graceMs: 0 } });
    const orphan = globalThis.crypto.randomUUID();
    await directory.write(orphan, new Uint8Array([1]));
    await vi.waitFor(async () => expect(await directory.has(orphan)).toBe(false));
    const unreadable = new Error("the rows cannot be read");
    inMemory.repositories.documents.findUploadFile = () => Promise.reject(unreadable);
    await directory.write(orphan, new Uint8Array([1]));
    await vi.waitFor(() => expect(failures[0]).toEqual(["sweep the files directory", unreadable]));
    expect(await directory.has(orphan)).toBe(true);
    await store.close();
    const told = failures.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(failures).toHaveLength(told);
  });
});
