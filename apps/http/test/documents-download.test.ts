import { createHmac } from "node:crypto";
import { aDocument, aMember, aWorkspace } from "@service-api/ports/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yauzl from "yauzl";
import { type ApiResponse, call } from "./support/http.js";
import { eventually, sleep } from "./support/load.js";
import { uploadForm } from "./support/multipart.js";
import { pdfBytes } from "./support/office-files.js";
import { issueKey } from "./support/seed.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ FILES_ACCESS_TIMEOUT: "2" });
});
afterAll(() => server.stop());

const AUTOMATIC = { process_rule: { mode: "automatic" } };

/** The signed URL on the test server itself (FILES_URL there ends in the configured port, 0). */
const onServer = (url: string) => {
  const { pathname, search } = new URL(url);
  return `${server.url}${pathname}${search}`;
};

async function aKnowledgeBase() {
  const { repositories } = server.store;
  const workspace = aWorkspace();
  await repositories.workspaces.save(workspace);
  await repositories.workspaces.saveMember(aMember(workspace.id, { role: "owner" }));
  const key = await issueKey(repositories, workspace.id);
  const send = (method: string, path: string, body?: unknown) =>
    call(server.url, method, `/v1${path}`, { token: key, body });
  const created = await send("POST", "/datasets", { name: "Files", indexing_technique: "economy" });
  const datasetId = created.body.id as string;
  const upload = async (
    name: string,
    content: string | Uint8Array,
    path = `/datasets/${datasetId}/document/create-by-file`,
    type?: string,
  ) => {
    const form = uploadForm([{ name, content, type }], AUTOMATIC);
    const response = await fetch(`${server.url}/v1${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": form.contentType },
      body: form.body,
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as ApiResponse["body"]).document as { id: string; name: string };
  };
  const completed = (documentId: string) =>
    eventually(async () => {
      const response = await send("GET", `/datasets/${datasetId}/documents/${documentId}`);
      return response.body.indexing_status === "completed";
    }, 30_000);
  return { workspace, key, send, upload, completed, datasetId };
}

/** The entries of a ZIP archive: name → content. */
function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const entries = new Map<string, Buffer>();
      zip.on("entry", (entry: yauzl.Entry) =>
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("end", () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        }),
      );
      zip.on("end", () => resolve(entries));
      zip.on("error", reject);
      zip.readEntry();
    });
  });
}

describe("GET /v1/datasets/{dataset_id}/documents/{document_id}/download", () => {
  it("answers a signed URL that serves the file as uploaded, with no key", async () => {
    const { send, upload, datasetId } = await aKnowledgeBase();
    const pdf = await pdfBytes(["A page."]);
    const document = await upload("Report – final.pdf", pdf);
    const response = await send("GET", `/datasets/${datasetId}/documents/${document.id}/download`);
    expect(response.status).toBe(200);
    const url = new URL(response.body.url as string);
    expect(url.pathname).toMatch(/^\/files\/[0-9a-f-]{36}\/file-preview$/);
    expect([...url.searchParams.keys()]).toEqual(["timestamp", "nonce", "sign", "as_attachment"]);
    const file = await fetch(onServer(response.body.url));
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(Buffer.from(pdf));
    expect(file.headers.get("content-type")).toBe("application/pdf");
    expect(file.headers.get("content-disposition")).toBe(
      `attachment; filename="Report _ final.pdf"; filename*=UTF-8''${encodeURIComponent("Report – final.pdf")}`,
    );
    expect(file.headers.get("x-content-type-options")).toBe("nosniff");
    // A PDF runs in the browser's own viewer, which a sandbox would keep from it.
    expect(file.headers.get("content-security-policy")).toBeNull();
  });

  it("shows in place only what runs nothing, without as_attachment; answers HEAD", async () => {
    const { send, upload, datasetId } = await aKnowledgeBase();
    const signed = async (name: string, content: string, type?: string) => {
      const document = await upload(name, content, undefined, type);
      const { body } = await send("GET", `/datasets/${datasetId}/documents/${document.id}/download`);
      const url = new URL(onServer(body.url));
      url.searchParams.delete("as_attachment");
      return url;
    };
    const text = await fetch(await signed("notes.txt", "Plain."));
    expect(text.headers.get("content-disposition")).toMatch(/^inline; /);
    expect(text.headers.get("content-type")).toBe("text/plain");
    const page = await fetch(await signed("page.html", "<script>alert(1)</script>", "text/html"));
    expect(page.headers.get("content-disposition")).toMatch(/^attachment; /);
    expect(page.headers.get("content-security-policy")).toBe("sandbox");
    // A type no header can carry is stored as the extension's.
    const odd = await fetch(await signed("odd.txt", "Odd.", "text/html\u0001"));
    expect(odd.status).toBe(200);
    expect(odd.headers.get("content-type")).toBe("text/plain");
    const head = await fetch(await signed("head.txt", "Head."), { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe("5");
    expect(await head.text()).toBe("");
  });

  it("signs with the key the database keeps (no SECRET_KEY), as Dify signs", async () => {
    const { send, upload, datasetId } = await aKnowledgeBase();
    const document = await upload("a.txt", "A.");
    const { body } = await send("GET", `/datasets/${datasetId}/documents/${document.id}/download`);
    const url = new URL(body.url as string);
    const key = await server.store.repositories.secrets.ensure("file_signing_key", "not this one");
    expect(key).not.toBe("not this one");
    const [, , fileId] = url.pathname.split("/");
    const { timestamp, nonce } = Object.fromEntries(url.searchParams);
    const expected = createHmac("sha256", key)
      .update(`file-preview|${fileId}|${timestamp}|${nonce}`)
      .digest("base64url");
    expect(url.searchParams.get("sign")?.replace(/=+$/, "")).toBe(expected);
  });

  it("refuses a forged, altered, incomplete or expired signature with 403, and a deleted document's file with 404", async () => {
    const { send, upload, datasetId } = await aKnowledgeBase();
    const document = await upload("a.txt", "Some text.");
    const { body } = await send("GET", `/datasets/${datasetId}/documents/${document.id}/download`);
    const url = new URL(onServer(body.url));
    const variant = (change: (query: URLSearchParams) => void, path = url.pathname) => {
      const query = new URLSearchParams(url.search);
      change(query);
      return fetch(`${server.url}${path}?${query}`);
    };
    const forbidden = { status: 403, code: "forbidden" };
    const other = globalThis.crypto.randomUUID();
    for (const response of [
      await variant((query) => query.set("sign", `${"A".repeat(43)}=`)),
      await variant((query) => query.set("nonce", "0".repeat(32))),
      await variant((query) => query.set("timestamp", String(Number(query.get("timestamp")) + 1))),
      await variant((query) => query.delete("sign")),
      await variant(() => {}, `/files/${other}/file-preview`),
    ]) {
      expect({ status: response.status, ...((await response.json()) as object) }).toMatchObject(forbidden);
    }
    expect((await fetch(url)).status).toBe(200);
    expect((await send("DELETE", `/datasets/${datasetId}/documents/${document.id}`)).status).toBe(204);
    const gone = await fetch(url);
    expect(gone.status).toBe(404);
    await sleep(3_100);
    expect((await fetch(url)).status).toBe(403);
  });

  it("stops serving a deleted dataset's files at once", async () => {
    const { send, upload, datasetId } = await aKnowledgeBase();
    const document = await upload("a.txt", "Some text.");
    const { body } = await send("GET", `/datasets/${datasetId}/documents/${document.id}/download`);
    expect((await fetch(onServer(body.url))).status).toBe(200);
    expect((await send("DELETE", `/datasets/${datasetId}`)).status).toBe(204);
    expect((await fetch(onServer(body.url))).status).toBe(404);
  });

  it("answers 404 for a missing document, one without a file, and another workspace's", async () => {
    const { send, datasetId, upload } = await aKnowledgeBase();
    const path = (id: string) => `/datasets/${datasetId}/documents/${id}/download`;
    expect((await send("GET", path(globalThis.crypto.randomUUID()))).body).toMatchObject({
      status: 404,
      message: "Document not found.",
    });
    const bare = aDocument(datasetId, { dataSourceType: "thirdparty_import", uploadFileId: null });
    await server.store.repositories.documents.save(bare);
    expect((await send("GET", path(bare.id))).body).toMatchObject({
      status: 404,
      message: "Document does not have an uploaded file to download.",
    });
    const document = await upload("mine.txt", "Mine.");
    const stranger = await aKnowledgeBase();
    expect((await stranger.send("GET", path(document.id))).body).toMatchObject({
      status: 404,
      message: "Dataset not found.",
    });
  });
});

describe("POST /v1/datasets/{dataset_id}/documents/download-zip", () => {
  it("streams one entry per file, as uploaded, names made unique", async () => {
    const { key, upload, completed, datasetId } = await aKnowledgeBase();
    const first = await upload("a.txt", "First.");
    const pdf = await pdfBytes(["Page."]);
    const second = await upload("c.pdf", pdf);
    const third = await upload("b.txt", "Third.");
    const drive = await upload("C:notes.txt", "On a drive.");
    // An update by file renames the third document: now two are called a.txt.
    await completed(third.id);
    await upload("a.txt", "Third, renamed.", `/datasets/${datasetId}/documents/${third.id}/update-by-file`);
    const response = await fetch(`${server.url}/v1/datasets/${datasetId}/documents/download-zip`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ document_ids: [first.id, second.id, third.id, first.id, drive.id] }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    expect(response.headers.get("content-disposition")).toContain('filename="documents.zip"');
    const entries = await unzip(Buffer.from(await response.arrayBuffer()));
    expect([...entries.keys()]).toEqual(["a.txt", "c.pdf", "a (2).txt", "C_notes.txt"]);
    expect(entries.get("C_notes.txt")?.toString()).toBe("On a drive.");
    expect(entries.get("a.txt")?.toString()).toBe("First.");
    expect(entries.get("c.pdf")).toEqual(Buffer.from(pdf));
    expect(entries.get("a (2).txt")?.toString()).toBe("Third, renamed.");
  });

  it("refuses what the published spec refuses, in its words", async () => {
    const { send, upload, datasetId } = await aKnowledgeBase();
    const document = await upload("a.txt", "A.");
    const bare = aDocument(datasetId, { dataSourceType: "thirdparty_import", uploadFileId: null });
    await server.store.repositories.documents.save(bare);
    const zip = (body: unknown) => send("POST", `/datasets/${datasetId}/documents/download-zip`, body);
    expect((await zip({ document_ids: [] })).body).toMatchObject({ status: 400, code: "invalid_param" });
    const many = Array.from({ length: 101 }, () => globalThis.crypto.randomUUID());
    expect((await zip({ document_ids: many })).body).toMatchObject({ status: 400, code: "invalid_param" });
    expect((await zip({ document_ids: [document.id, globalThis.crypto.randomUUID()] })).body).toMatchObject({
      status: 404,
      message: "Document not found.",
    });
    expect((await zip({ document_ids: [document.id, bare.id] })).body).toMatchObject({
      status: 404,
      message: "Only uploaded-file documents can be downloaded as ZIP.",
    });
    expect((await zip({ document_ids: ["not-a-uuid"] })).status).toBeGreaterThanOrEqual(400);
  });
});
