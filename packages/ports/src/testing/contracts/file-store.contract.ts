import { describe, expect, it } from "vitest";
import { aDataset, aDocument, anUploadFile, aWorkspace } from "../fixtures.js";
import { type OpenStore, useStore } from "./use-store.js";

/** Files' bytes kept by file id, byte for byte, going with the file's row. */
export function describeFileStoreContract(openStore: OpenStore): void {
  describe("FileStore contract", () => {
    const repositories = useStore(openStore);

    async function aStoredFile() {
      const { workspaces, datasets, documents } = repositories();
      const workspace = aWorkspace();
      await workspaces.save(workspace);
      const dataset = aDataset(workspace.id);
      await datasets.save(dataset);
      const file = anUploadFile("member");
      await documents.saveUploadFile(workspace.id, file);
      const document = aDocument(dataset.id, { uploadFileId: file.id });
      await documents.save(document);
      return { dataset, file, document };
    }

    it("gives back the bytes it was given, byte for byte, and the last ones put", async () => {
      const { files } = repositories();
      const { file } = await aStoredFile();
      expect(await files.get(file.id)).toBeUndefined();
      const bytes = new Uint8Array(256 * 1024).map((_, index) => (index * 31) % 256);
      await files.put(file.id, bytes);
      expect(Buffer.from((await files.get(file.id))!)).toEqual(Buffer.from(bytes));
      await files.put(file.id, new TextEncoder().encode("héllo 👋\u0000end"));
      expect(new TextDecoder().decode(await files.get(file.id))).toBe("héllo 👋\u0000end");
      await files.put(file.id, new Uint8Array(0));
      expect((await files.get(file.id))?.length).toBe(0);
    });

    it("keeps no bytes for a file whose row is gone", async () => {
      const { files, documents } = repositories();
      const { dataset, file, document } = await aStoredFile();
      await files.put(file.id, new Uint8Array([1, 2, 3]));
      expect(await documents.delete(dataset.id, document.id, { archived: false })).toBe(true);
      expect(await documents.findUploadFile(file.id)).toBeUndefined();
      expect(await files.get(file.id)).toBeUndefined();
    });

    it("serves a file while a document of its workspace's dataset names it, not after", async () => {
      const { documents, datasets, workspaces } = repositories();
      const { dataset, file, document } = await aStoredFile();
      expect(await documents.findServedUploadFile(file.id)).toEqual(file);
      const unnamed = anUploadFile("member");
      await documents.saveUploadFile(dataset.workspaceId, unnamed);
      expect(await documents.findUploadFile(unnamed.id)).toEqual(unnamed);
      expect(await documents.findServedUploadFile(unnamed.id)).toBeUndefined();
      expect(await documents.findServedUploadFile(globalThis.crypto.randomUUID())).toBeUndefined();
      // A file of one workspace that another workspace's document names is not served.
      const other = aWorkspace();
      await workspaces.save(other);
      const otherDataset = aDataset(other.id);
      await datasets.save(otherDataset);
      await documents.save(aDocument(otherDataset.id, { uploadFileId: unnamed.id }));
      expect(await documents.findServedUploadFile(unnamed.id)).toBeUndefined();
      // A deleted dataset's files stop at once, before its purge.
      expect(await datasets.moveToTrash(dataset.workspaceId, dataset.id)).toBe(true);
      expect(await documents.findUploadFile(file.id)).toEqual(file);
      expect(await documents.findServedUploadFile(file.id)).toBeUndefined();
      expect(document.uploadFileId).toBe(file.id);
    });

    it("refuses bytes for a file that has no row", async () => {
      const { files } = repositories();
      await expect(files.put(globalThis.crypto.randomUUID(), new Uint8Array([1]))).rejects.toThrow();
    });
  });
}
