import { aMember, aWorkspace } from "@service-api/ports/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "./support/http.js";
import { eventually } from "./support/load.js";
import { issueKey } from "./support/seed.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

const MEBIBYTE = 1024 * 1024;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ UPLOAD_FILE_SIZE_LIMIT_MB: "20" });
});
afterAll(() => server.stop());

describe("a document as big as a raised upload limit", () => {
  it("is read and chunked whole: the readers take what UPLOAD_FILE_SIZE_LIMIT_MB lets in", async () => {
    const { repositories } = server.store;
    const workspace = aWorkspace();
    await repositories.workspaces.save(workspace);
    await repositories.workspaces.saveMember(aMember(workspace.id, { role: "owner" }));
    const key = await issueKey(repositories, workspace.id);
    const send = (method: string, path: string, body?: unknown) =>
      call(server.url, method, `/v1${path}`, { token: key, body });
    const dataset = await send("POST", "/datasets", { name: "Big", indexing_technique: "economy" });
    // 16 MiB, over the readers' own 15 MiB default: paragraphs of 3,000 characters.
    const paragraph = `${"a".repeat(2_999)}.`;
    const count = Math.ceil((16 * MEBIBYTE) / (paragraph.length + 2));
    const text = Array.from({ length: count }, () => paragraph).join("\n\n");
    expect(text.length).toBeGreaterThan(16 * MEBIBYTE - 3_000);
    const created = await send("POST", `/datasets/${dataset.body.id}/document/create-by-text`, {
      name: "big.txt",
      text,
      process_rule: {
        mode: "custom",
        rules: { pre_processing_rules: [], segmentation: { separator: "\\n\\n", max_tokens: 4000 } },
      },
    });
    expect(created.status).toBe(200);
    const path = `/datasets/${dataset.body.id}/documents/${created.body.batch}/indexing-status`;
    const ended = async () => {
      const [entry] = (await send("GET", path)).body.data as Record<string, unknown>[];
      return entry!.indexing_status === "completed" || entry!.indexing_status === "error" ? entry : undefined;
    };
    await eventually(async () => (await ended()) !== undefined, 120_000);
    expect(await ended()).toMatchObject({
      indexing_status: "completed",
      error: null,
      completed_segments: count,
      total_segments: count,
    });
  }, 180_000);
});
