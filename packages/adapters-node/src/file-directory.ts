import { randomBytes } from "node:crypto";
import type { Stats } from "node:fs";
import { lstat, mkdir, open, readdir, readFile, rename, stat, unlink } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";

/** The files directory cannot be used: the message names it and says why. */
export class FileDirectoryError extends Error {
  override readonly name = "FileDirectoryError";
}

/** A file the directory holds, as `entries` lists it. */
export interface DirectoryEntry {
  path: string;
  /** Whose bytes it holds; undefined for a write's temporary file (one that never finished, or not yet). */
  fileId: string | undefined;
  /** When it was last written, in ms since the epoch. */
  modifiedAt: number;
  /** Which file it is: a write that replaced it since it was listed made another. */
  inode: number;
}

/** A write set aside, not yet in place. */
export interface StagedFile {
  readonly path: string;
  /** Puts it in place of the file's bytes. */
  commit(): Promise<void>;
  /** Removes it. */
  discard(): Promise<void>;
}

/** An id of lower-case letters, digits and hyphens (a UUID) is its own file name. */
const PLAIN_ID = /^[0-9a-z][0-9a-z-]{1,199}$/;
/** Any other id is written `_` and its UTF-8 in hex: no separator, dot or case can reach a path. */
const ENCODED_ID = /^_(?:[0-9a-f]{2})+$/;
const TEMPORARY = /^\..+\.tmp$/;

export function fileNameOf(fileId: string): string {
  return PLAIN_ID.test(fileId) ? fileId : `_${Buffer.from(fileId, "utf8").toString("hex")}`;
}

function fileIdOf(name: string): string | undefined {
  if (PLAIN_ID.test(name)) return name;
  if (!ENCODED_ID.test(name)) return undefined;
  const fileId = Buffer.from(name.slice(1), "hex").toString("utf8");
  return fileNameOf(fileId) === name ? fileId : undefined;
}

const codeOf = (error: unknown) => (error as { code?: unknown } | null)?.code;
const isMissing = (error: unknown) => codeOf(error) === "ENOENT" || codeOf(error) === "ENOTDIR";
const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Files' bytes in a directory: each file at `{directory}/{first two characters of its name}/{name}`,
 * its name the file's id (see `fileNameOf`). A write goes to a temporary name beside it, is synced
 * to the disk and renamed into place, the folder synced after: a reader finds the old bytes or the
 * new ones, never part of them, and a write that returned survives a crash.
 */
export class FileDirectory {
  private constructor(readonly path: string) {}

  /**
   * The directory at `path` (resolved against the working directory), made when it is missing.
   * Throws a `FileDirectoryError` when it is not a directory or this process cannot write in it.
   */
  static async open(path: string): Promise<FileDirectory> {
    const directory = resolve(path);
    const found = await stat(directory).catch((error: unknown) => {
      if (isMissing(error)) return undefined;
      throw new FileDirectoryError(`The files directory ${directory} cannot be read: ${reasonOf(error)}`, {
        cause: error,
      });
    });
    if (found && !found.isDirectory())
      throw new FileDirectoryError(`The files directory ${directory} is not a directory: a file is there`);
    if (!found)
      await mkdir(directory, { recursive: true }).catch((error: unknown) => {
        throw new FileDirectoryError(`The files directory ${directory} cannot be made: ${reasonOf(error)}`, {
          cause: error,
        });
      });
    const opened = new FileDirectory(directory);
    const probe = join(directory, `.probe.${randomBytes(6).toString("hex")}.tmp`);
    try {
      await (await open(probe, "wx")).close();
      await unlink(probe);
    } catch (error) {
      throw new FileDirectoryError(
        `The files directory ${directory} cannot be written by this process: ${reasonOf(error)}`,
        { cause: error },
      );
    }
    return opened;
  }

  pathOf(fileId: string): string {
    const name = fileNameOf(fileId);
    return join(this.path, name.slice(0, 2), name);
  }

  /** Puts `bytes` in place as the file's, replacing any. */
  async write(fileId: string, bytes: Uint8Array): Promise<void> {
    await (await this.stage(fileId, bytes)).commit();
  }

  /** Writes `bytes` aside, synced, to be put in place later (or discarded). */
  async stage(fileId: string, bytes: Uint8Array): Promise<StagedFile> {
    const path = this.pathOf(fileId);
    const folder = dirname(path);
    if (await mkdir(folder, { recursive: true })) await syncFolder(this.path);
    const temporary = join(folder, `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
    const discard = () => unlink(temporary).catch(() => undefined);
    const handle = await open(temporary, "wx");
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } catch (error) {
      await handle.close();
      await discard();
      throw error;
    }
    await handle.close();
    return {
      path: temporary,
      commit: async () => {
        await rename(temporary, path).catch(async (error: unknown) => {
          await discard();
          throw error;
        });
        await syncFolder(folder);
      },
      discard,
    };
  }

  /** The bytes at `path` (the file's, unless given), undefined when there are none. */
  async read(fileId: string, path = this.pathOf(fileId)): Promise<Uint8Array | undefined> {
    const bytes = await readFile(path).catch((error: unknown) => {
      if (isMissing(error)) return undefined;
      throw error;
    });
    return bytes && new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  async has(fileId: string): Promise<boolean> {
    return (await lstat(this.pathOf(fileId)).catch(() => undefined)) !== undefined;
  }

  /**
   * The files under the directory, folder by folder: the files' bytes and writes' temporary files.
   * Anything else (a name that is no file's, a folder of another shape) is left out, and left alone.
   */
  async *entries(): AsyncGenerator<DirectoryEntry> {
    for (const folder of await readdir(this.path, { withFileTypes: true })) {
      if (!folder.isDirectory() || folder.name.length > 2) continue;
      const names = await readdir(join(this.path, folder.name)).catch((error: unknown) => {
        if (isMissing(error)) return [];
        throw error;
      });
      for (const name of names) {
        const temporary = TEMPORARY.test(name);
        const fileId = temporary ? undefined : fileIdOf(name);
        if (!temporary && (fileId === undefined || name.slice(0, 2) !== folder.name)) continue;
        const path = join(this.path, folder.name, name);
        const found = await lstat(path).catch(() => undefined);
        if (found?.isFile()) yield { path, fileId, ...versionOf(found) };
      }
    }
  }

  /** Removes the entry's file unless it was written again since it was listed; whether it did. */
  async remove(entry: DirectoryEntry): Promise<boolean> {
    const found = await lstat(entry.path).catch(() => undefined);
    if (!found) return false;
    const { modifiedAt, inode } = versionOf(found);
    if (modifiedAt !== entry.modifiedAt || inode !== entry.inode) return false;
    return unlink(entry.path).then(
      () => true,
      (error: unknown) => {
        if (isMissing(error)) return false;
        throw error;
      },
    );
  }
}

const versionOf = (found: Stats) => ({ modifiedAt: found.mtimeMs, inode: found.ino });

/** Syncs a folder, so that a name made or replaced in it survives a crash; where none can be, nothing. */
async function syncFolder(folder: string): Promise<void> {
  if (process.platform === "win32") return;
  const handle = await open(folder, "r");
  try {
    await handle.sync().catch((error: unknown) => {
      // Some file systems cannot sync a folder; their renames are as durable as they make them.
      if (codeOf(error) !== "EINVAL" && codeOf(error) !== "ENOTSUP") throw error;
    });
  } finally {
    await handle.close();
  }
}
