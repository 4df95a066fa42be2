import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { aMember, anApp, aWorkspace } from "@service-api/ports/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiResponse, call } from "./support/http.js";
import { eventually } from "./support/load.js";
import { type FormPart, multipartBody, uploadForm } from "./support/multipart.js";
import { docxBomb, docxBytes, pdfBytes, xlsxBytes } from "./support/office-files.js";
import { issueKey } from "./support/seed.js";

/** An app of the workspace, and its key. */
async function seedApp(workspaceId: string) {
  const app = anApp(workspaceId);
  await server.store.repositories.apps.save(app);
  return issueKey(server.store.repositories, workspaceId, app.id);
}

import { startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    UPLOAD_FILE_SIZE_LIMIT_MB: "2",
    UPLOAD_FILE_EXTENSION_BLACKLIST: "md, .EXE",
  });
});
afterAll(() => server.stop());

const AUTOMATIC = { process_rule: { mode: "automatic" } };
type Form = ReturnType<typeof multipartBody>;

/** A workspace with its owner, a knowledge key and an economy dataset made through the API. */
async function aKnowledgeBase(dataset: Record<string, unknown> = { indexing_technique: "economy" }) {
  const { repositories } = server.store;
  const workspace = aWorkspace();
  await repositories.workspaces.save(workspace);
  await repositories.workspaces.saveMember(aMember(workspace.id, { name: "Grace", role: "owner" }));
  const key = await issueKey(repositories, workspace.id);
  const send = (method: string, path: string, body?: unknown) =>
    call(server.url, method, `/v1${path}`, { token: key, body });
  const created = await send("POST", "/datasets", { name: "Handbook", ...dataset });
  expect(created.status).toBe(200);
  const datasetId = created.body.id as string;
  const upload = async (path: string, form: Form, method = "POST") => {
    const response = await fetch(`${server.url}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": form.contentType },
      body: form.body,
    });
    const text = await response.text();
    return { status: response.status, body: JSON.parse(text) as ApiResponse["body"] };
  };
  const create = (form: Form) => upload(`/datasets/${datasetId}/document/create-by-file`, form);
  const indexed = async (batch: string) => {
    let entries: Record<string, unknown>[] = [];
    await eventually(async () => {
      const response = await send("GET", `/datasets/${datasetId}/documents/${batch}/indexing-status`);
      entries = response.body.data as Record<string, unknown>[];
      return entries.every(
        (entry) => entry.indexing_status === "completed" || entry.indexing_status === "error",
      );
    }, 30_000);
    return entries[0]!;
  };
  const segments = async (documentId: string) =>
    (await repositories.segments.listOfDocument(documentId)).map((segment) => segment.content);
  const documentCount = async () => (await repositories.documents.listInDataset(datasetId)).length;
  return { key, send, upload, create, indexed, segments, documentCount, datasetId };
}

describe("POST /v1/datasets/{dataset_id}/document/create-by-file", () => {
  it("answers at once with the waiting document named by its file, then indexes it", async () => {
    const { create, indexed, segments, send, datasetId } = await aKnowledgeBase();
    const text = "First part of the guide.\n\nSecond part of the guide.";
    const response = await create(
      uploadForm([{ name: "guide.txt", content: text, type: "text/plain" }], AUTOMATIC),
    );
    expect(response.status).toBe(200);
    expect(response.body.batch).toMatch(/^\d{20}$/);
    expect(response.body.document).toMatchObject({
      name: "guide.txt",
      data_source_type: "upload_file",
      indexing_status: "waiting",
      display_status: "queuing",
      created_from: "api",
    });
    const documentId = response.body.document.id as string;
    expect(await indexed(response.body.batch)).toMatchObject({ indexing_status: "completed", error: null });
    expect(await segments(documentId)).toEqual([text]);
    const detail = await send("GET", `/datasets/${datasetId}/documents/${documentId}`);
    expect(detail.body).toMatchObject({
      segment_count: 1,
      average_segment_length: [...text].length,
      data_source_info: { upload_file: { name: "guide.txt", extension: "txt", mime_type: "text/plain" } },
    });
  });

  it("reads each format with its library into Dify's units, with our fixes", async () => {
    const { create, indexed, segments } = await aKnowledgeBase();
    const files = [
      { name: "notes.markdown", content: "# Setup\n\nPlug it in.\n\n## C# notes\n\nUse `List<int>` here." },
      { name: "page.html", content: "<html><body><h1>Title</h1><p>Body text.</p></body></html>" },
      { name: "people.csv", content: "name;age\nAda;36\nBob;\n" },
      {
        name: "report.docx",
        content: await docxBytes([[{ text: "The " }, { text: "quick", bold: true }, { text: " fox." }]]),
      },
      { name: "pages.pdf", content: await pdfBytes(["Page one text.", "Page two text."]) },
      {
        name: "sheet.xlsx",
        content: await xlsxBytes([
          ["Name", "Age"],
          ["Ada", 36],
          ["Bob", 41],
        ]),
      },
    ];
    const expected: Record<string, string[]> = {
      "notes.markdown": ["Setup\nPlug it in.", "C# notes\nUse `List<int>` here."],
      "page.html": ["Title\nBody text."],
      "people.csv": ["name: Ada;age: 36", "name: Bob;age:"],
      "report.docx": ["The quick fox."],
      "pages.pdf": ["Page one text.", "Page two text."],
      // Dify's chunker drops a chunk's leading symbols: the row's first quote goes.
      "sheet.xlsx": ['Name":"Ada";"Age":"36"', 'Name":"Bob";"Age":"41"'],
    };
    for (const file of files) {
      const response = await create(uploadForm([file], AUTOMATIC));
      expect(response.status, file.name).toBe(200);
      const status = await indexed(response.body.batch);
      expect(status, file.name).toMatchObject({ indexing_status: "completed" });
      expect(await segments(response.body.document.id), file.name).toEqual(expected[file.name]);
    }
  });

  it("takes a file that cannot be read, and ends its document in error saying why; the server keeps serving", async () => {
    const { create, indexed, send } = await aKnowledgeBase();
    const files = [
      { name: "empty.txt", content: "", reason: /empty/i },
      { name: "broken.pdf", content: "%PDF-1.4\nthis is not a PDF at all", reason: /pdf/i },
      { name: "secret.pdf", content: await pdfBytes(["Hidden."], "password"), reason: /encrypt|password/i },
      { name: "letter.docx", content: "plain text, not a DOCX", reason: /docx/i },
      { name: "bomb.docx", content: await docxBomb(150), reason: /decompression bomb/i },
    ];
    for (const file of files) {
      const response = await create(uploadForm([file], AUTOMATIC));
      expect(response.status, file.name).toBe(200);
      const status = await indexed(response.body.batch);
      expect(status.indexing_status, file.name).toBe("error");
      expect(status.error, file.name).toMatch(file.reason);
    }
    expect((await send("GET", "/datasets")).status).toBe(200);
  });

  it("is served at Dify's older path too, and a same-name file replaces the document", async () => {
    const { upload, create, indexed, segments, datasetId } = await aKnowledgeBase();
    const first = await create(uploadForm([{ name: "faq.txt", content: "Old answer." }], AUTOMATIC));
    await indexed(first.body.batch);
    const again = await upload(
      `/datasets/${datasetId}/document/create_by_file`,
      uploadForm([{ name: "faq.txt", content: "New answer." }]),
    );
    expect(again.status).toBe(200);
    expect(again.body.document.id).toBe(first.body.document.id);
    expect(again.body.batch).not.toBe(first.body.batch);
    await indexed(again.body.batch);
    expect(await segments(first.body.document.id)).toEqual(["New answer."]);
  });

  it("refuses a request in Dify's order, each with its code, writing nothing", async () => {
    const { create, upload, documentCount, send } = await aKnowledgeBase();
    const txt = { name: "a.txt", content: "Text." };
    const refusals: [Form, number, string, string | RegExp][] = [
      [uploadForm([], AUTOMATIC), 400, "no_file_uploaded", "Please upload your file."],
      [
        uploadForm([txt, { name: "b.txt", content: "More." }], AUTOMATIC),
        400,
        "too_many_files",
        "Only one file is allowed.",
      ],
      [
        uploadForm([{ name: "", content: "x" }], AUTOMATIC),
        400,
        "filename_not_exists_error",
        "The specified filename does not exist.",
      ],
      [
        uploadForm([{ name: "dir/a.txt", content: "x" }], AUTOMATIC),
        400,
        "invalid_param",
        "Filename contains invalid characters",
      ],
      [uploadForm([{ name: "tool.exe", content: "x" }], AUTOMATIC), 400, "file_extension_blocked", /blocked/],
      [uploadForm([{ name: "notes.md", content: "x" }], AUTOMATIC), 400, "file_extension_blocked", /blocked/],
      [
        uploadForm([{ name: "slides.pptx", content: "x" }], AUTOMATIC),
        415,
        "unsupported_file_type",
        "File type not allowed.",
      ],
      [
        uploadForm([{ name: "README", content: "x" }], AUTOMATIC),
        415,
        "unsupported_file_type",
        "File type not allowed.",
      ],
      [
        uploadForm([{ name: "big.txt", content: "x".repeat(2 * 1024 * 1024 + 1) }], AUTOMATIC),
        413,
        "file_too_large",
        "File size exceeded. The limit is 2 MB.",
      ],
      [uploadForm([txt], "{not json"), 400, "invalid_param", "data: must be a JSON object."],
      [uploadForm([txt], "[1, 2]"), 400, "invalid_param", "data: must be a JSON object."],
      [uploadForm([txt], { process_rule: { mode: "sideways" } }), 400, "invalid_param", /process_rule|mode/i],
      [uploadForm([txt], { doc_form: "qa_model", ...AUTOMATIC }), 400, "provider_not_initialize", /Model/],
    ];
    for (const [form, status, code, message] of refusals) {
      const response = await create(form);
      expect({ status: response.status, code: response.body.code }, String(message)).toEqual({
        status,
        code,
      });
      expect(response.body.message).toMatch(message);
    }
    // A body that is no form has no file.
    const json = await send(
      "POST",
      `/datasets/${(await send("GET", "/datasets")).body.data[0].id}/document/create-by-file`,
      {},
    );
    expect(json.body).toMatchObject({ status: 400, code: "no_file_uploaded" });
    // The dataset comes first, whatever else is wrong.
    const missing = await upload(
      `/datasets/${globalThis.crypto.randomUUID()}/document/create-by-file`,
      uploadForm([]),
    );
    expect(missing.body).toMatchObject({ status: 404, code: "not_found" });
    expect(await documentCount()).toBe(0);
  });

  it("takes only a part named file with a file name as the upload", async () => {
    const { create, documentCount } = await aKnowledgeBase();
    const data: FormPart = { name: "data", content: JSON.stringify(AUTOMATIC) };
    const noName = await create(
      multipartBody([data, { name: "file", type: "application/octet-stream", content: "x" }]),
    );
    expect(noName.body).toMatchObject({ status: 400, code: "no_file_uploaded" });
    const otherField = await create(
      multipartBody([data, { name: "attachment", filename: "a.txt", content: "x" }]),
    );
    expect(otherField.body).toMatchObject({ status: 400, code: "no_file_uploaded" });
    const both = await create(
      multipartBody([
        data,
        { name: "file", filename: "a.txt", content: "x" },
        { name: "attachment", filename: "b.txt", content: "y" },
      ]),
    );
    expect(both.body).toMatchObject({ status: 400, code: "too_many_files" });
    expect(await documentCount()).toBe(0);
  });

  it("checks the extension before the size, and answers a chunked upload over the limit", async () => {
    const { create, documentCount, datasetId, key } = await aKnowledgeBase();
    const big = "x".repeat(2.5 * 1024 * 1024);
    expect((await create(uploadForm([{ name: "big.exe", content: big }], AUTOMATIC))).body).toMatchObject({
      code: "file_extension_blocked",
    });
    expect((await create(uploadForm([{ name: "big.pptx", content: big }], AUTOMATIC))).body).toMatchObject({
      status: 415,
    });
    expect((await create(uploadForm([{ name: "big.txt", content: big }], AUTOMATIC))).body).toMatchObject({
      status: 413,
      code: "file_too_large",
    });
    // No Content-Length: the form is read as it comes, and the answer still reaches the client.
    const form = uploadForm([{ name: "endless.txt", content: "y".repeat(5 * 1024 * 1024) }], AUTOMATIC);
    const chunks = [form.body.subarray(0, 1024 * 1024), form.body.subarray(1024 * 1024)];
    const streamed = await fetch(`${server.url}/v1/datasets/${datasetId}/document/create-by-file`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": form.contentType },
      body: new ReadableStream({
        pull(controller) {
          const chunk = chunks.shift();
          if (chunk) controller.enqueue(chunk);
          else controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(await streamed.json()).toMatchObject({ code: "file_too_large" });
    expect(await documentCount()).toBe(0);
  });

  it("replaces the document an original_document_id names", async () => {
    const { create, indexed, segments } = await aKnowledgeBase();
    const first = await create(uploadForm([{ name: "v1.txt", content: "Version one." }], AUTOMATIC));
    await indexed(first.body.batch);
    const again = await create(
      uploadForm([{ name: "v2.txt", content: "Version two." }], {
        original_document_id: first.body.document.id,
      }),
    );
    expect(again.status).toBe(200);
    expect(again.body.document).toMatchObject({ id: first.body.document.id, name: "v2.txt" });
    await indexed(again.body.batch);
    expect(await segments(first.body.document.id)).toEqual(["Version two."]);
    const noFile = await create(
      uploadForm([], { original_document_id: first.body.document.id, ...AUTOMATIC }),
    );
    expect(noFile.body).toMatchObject({ status: 400, code: "no_file_uploaded" });
  });

  it("wants a technique on a dataset without one, and a rule when neither the data nor the dataset has one", async () => {
    const { create, documentCount } = await aKnowledgeBase({});
    const file = { name: "a.txt", content: "Text." };
    const noTechnique = await create(uploadForm([], AUTOMATIC));
    expect(noTechnique.body).toMatchObject({ status: 400, message: "indexing_technique is required." });
    const noRule = await create(uploadForm([file], { indexing_technique: "economy" }));
    expect(noRule.body).toMatchObject({
      status: 400,
      code: "invalid_param",
      message: "process_rule is required.",
    });
    const nullRule = await create(uploadForm([file], { indexing_technique: "economy", process_rule: null }));
    expect(nullRule.body).toMatchObject({ status: 400, message: "process_rule is required." });
    expect(await documentCount()).toBe(0);
    expect((await create(uploadForm([file], { indexing_technique: "economy", ...AUTOMATIC }))).status).toBe(
      200,
    );
    // The dataset has a rule now: the next file without one takes it.
    expect((await create(uploadForm([{ name: "b.txt", content: "More." }]))).status).toBe(200);
  });

  it("bounds a form: 50 parts are read, more than 64 refused, a malformed body is a 400", async () => {
    const { create, documentCount } = await aKnowledgeBase();
    const fields = (count: number): FormPart[] =>
      Array.from({ length: count }, (_, index) => ({ name: `field${index}`, content: "x" }));
    const file: FormPart = { name: "file", filename: "a.txt", content: "Text." };
    const data: FormPart = { name: "data", content: JSON.stringify(AUTOMATIC) };
    expect((await create(multipartBody([data, ...fields(48), file]))).status).toBe(200);
    const many = await create(multipartBody([data, ...fields(70), file]));
    expect(many.body).toMatchObject({ status: 413, code: "request_entity_too_large" });
    const files50 = Array.from({ length: 50 }, (_, index) => ({ ...file, filename: `f${index}.txt` }));
    expect((await create(multipartBody([data, ...files50]))).body).toMatchObject({ code: "too_many_files" });
    const malformed = {
      body: Buffer.from('--x\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nno end'),
      contentType: "multipart/form-data; boundary=x",
    };
    expect((await create(malformed)).body).toMatchObject({ status: 400, code: "bad_request" });
    const noBoundary = { body: Buffer.from("x"), contentType: "multipart/form-data" };
    expect((await create(noBoundary)).body).toMatchObject({ status: 400, code: "bad_request" });
    expect(await documentCount()).toBe(1);
  });
});

describe("documents by file: isolation", () => {
  it("reads and changes nothing for another workspace's key, an app key or no key", async () => {
    const mine = await aKnowledgeBase();
    const created = await mine.create(uploadForm([{ name: "mine.txt", content: "Mine." }], AUTOMATIC));
    await mine.indexed(created.body.batch);
    const stranger = await aKnowledgeBase();
    const workspace = aWorkspace();
    await server.store.repositories.workspaces.save(workspace);
    const app = await seedApp(workspace.id);
    const documentPath = `/datasets/${mine.datasetId}/documents/${created.body.document.id}`;
    const attempts = [
      ["POST", `/datasets/${mine.datasetId}/document/create-by-file`],
      ["PATCH", documentPath],
      ["POST", `${documentPath}/update-by-file`],
    ] as const;
    const form = () => uploadForm([{ name: "theirs.txt", content: "Theirs." }], AUTOMATIC);
    for (const [method, path] of attempts) {
      const other = await stranger.upload(path, form(), method);
      expect(other.body, `${method} ${path}`).toMatchObject({ status: 404, message: "Dataset not found." });
      for (const authorization of [`Bearer ${app}`, undefined]) {
        const { body, contentType } = form();
        const response = await fetch(`${server.url}/v1${path}`, {
          method,
          headers: { "content-type": contentType, ...(authorization && { authorization }) },
          body,
        });
        expect(response.status, `${method} ${path} ${authorization ?? "no key"}`).toBe(401);
      }
    }
    expect(await mine.documentCount()).toBe(1);
    expect(await mine.segments(created.body.document.id)).toEqual(["Mine."]);
    const [document] = await server.store.repositories.documents.listInDataset(mine.datasetId);
    expect(document).toMatchObject({ name: "mine.txt", indexingStatus: "completed" });
  });
});

describe("updating a document by file: PATCH, update-by-file and update_by_file", () => {
  it("replaces the file and name, keeps the batch, and indexes the new content", async () => {
    const { create, upload, indexed, segments, send, datasetId } = await aKnowledgeBase();
    const created = await create(uploadForm([{ name: "old.txt", content: "Old content." }], AUTOMATIC));
    await indexed(created.body.batch);
    const documentId = created.body.document.id as string;
    const paths: [string, string][] = [
      ["PATCH", `/datasets/${datasetId}/documents/${documentId}`],
      ["POST", `/datasets/${datasetId}/documents/${documentId}/update-by-file`],
      ["POST", `/datasets/${datasetId}/documents/${documentId}/update_by_file`],
    ];
    for (const [index, [method, path]] of paths.entries()) {
      const name = `version${index}.html`;
      const response = await upload(
        path,
        uploadForm([{ name, content: `<p>Version ${index}.</p>` }]),
        method,
      );
      expect(response.status, path).toBe(200);
      expect(response.body.batch).toBe(created.body.batch);
      expect(response.body.document).toMatchObject({ id: documentId, name, indexing_status: "waiting" });
      await indexed(response.body.batch);
      expect(await segments(documentId)).toEqual([`Version ${index}.`]);
    }
    const detail = await send("GET", `/datasets/${datasetId}/documents/${documentId}`);
    expect(detail.body.data_source_info.upload_file).toMatchObject({
      name: "version2.html",
      mime_type: "text/html",
    });
  });

  it("takes a rule alone, and refuses neither file nor rule, a missing document, and two files", async () => {
    const { create, upload, indexed, datasetId } = await aKnowledgeBase();
    const created = await create(uploadForm([{ name: "a.txt", content: "One.\nTwo." }], AUTOMATIC));
    await indexed(created.body.batch);
    const path = `/datasets/${datasetId}/documents/${created.body.document.id}`;
    const rule = {
      process_rule: {
        mode: "custom",
        rules: { pre_processing_rules: [], segmentation: { separator: "\n", max_tokens: 60 } },
      },
    };
    const ruleOnly = await upload(path, uploadForm([], rule), "PATCH");
    expect(ruleOnly.status).toBe(200);
    expect(ruleOnly.body.document.name).toBe("a.txt");
    await indexed(ruleOnly.body.batch);
    expect((await upload(path, uploadForm([], {}), "PATCH")).body).toMatchObject({
      status: 400,
      message: "Data source or Process rule is required",
    });
    const missing = `/datasets/${datasetId}/documents/${globalThis.crypto.randomUUID()}`;
    expect(
      (await upload(missing, uploadForm([{ name: "b.txt", content: "x" }]), "PATCH")).body,
    ).toMatchObject({
      status: 404,
      message: "Document not found.",
    });
    const two = uploadForm([
      { name: "b.txt", content: "x" },
      { name: "c.txt", content: "y" },
    ]);
    expect((await upload(`${path}/update-by-file`, two)).body).toMatchObject({ code: "too_many_files" });
    expect(
      (await upload(`${path}/update-by-file`, uploadForm([{ name: "x.pptx", content: "x" }]))).body,
    ).toMatchObject({
      status: 415,
      code: "unsupported_file_type",
    });
  });
});

describe("FILES_DIR", () => {
  it("keeps an uploaded file's bytes in the directory, and indexes it from there", async () => {
    const directory = await mkdtemp(join(tmpdir(), "service-api-files-"));
    const own = await startTestServer({ FILES_DIR: directory });
    try {
      const { repositories } = own.store;
      const workspace = aWorkspace();
      await repositories.workspaces.save(workspace);
      await repositories.workspaces.saveMember(aMember(workspace.id, { role: "owner" }));
      const key = await issueKey(repositories, workspace.id);
      const dataset = await call(own.url, "POST", "/v1/datasets", {
        token: key,
        body: { name: "Files", indexing_technique: "economy" },
      });
      const form = uploadForm([{ name: "kept.txt", content: "Bytes on disk." }], AUTOMATIC);
      const created = await fetch(`${own.url}/v1/datasets/${dataset.body.id}/document/create-by-file`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": form.contentType },
        body: form.body,
      });
      expect(created.status).toBe(200);
      const { document } = (await created.json()) as {
        document: { id: string; data_source_info: { upload_file_id: string } };
      };
      const fileId = document.data_source_info.upload_file_id;
      const shard = await readdir(join(directory, fileId.slice(0, 2)));
      expect(shard).toContain(fileId);
      expect(await readFile(join(directory, fileId.slice(0, 2), fileId), "utf8")).toBe("Bytes on disk.");
      await eventually(
        async () => (await repositories.segments.listOfDocument(document.id)).length > 0,
        30_000,
      );
      expect(
        (await repositories.segments.listOfDocument(document.id)).map((segment) => segment.content),
      ).toEqual(["Bytes on disk."]);
    } finally {
      await own.stop();
      await rm(directory, { recursive: true, force: true });
    }
  });
});
