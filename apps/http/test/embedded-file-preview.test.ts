import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { aMember, aWorkspace } from "@service-api/ports/testing";
import { openStore } from "@service-api/stores";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceApiRouter } from "../src/index.js";
import { uploadForm } from "./support/multipart.js";
import { issueKey } from "./support/seed.js";

const directory = mkdtempSync(join(tmpdir(), "service-api-embedded-files-"));
const databaseUrl = `file:${join(directory, "kb.sqlite")}`;
const router = createServiceApiRouter({ databaseUrl, backgroundWorkers: 0 });
let base = "";
let close = async () => {};

beforeAll(async () => {
  await router.ready;
  const server = express().use("/kb", router).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/kb`;
  close = async () => {
    await new Promise((resolve) => server.close(resolve));
    await router.close();
  };
});
afterAll(async () => {
  await close();
  rmSync(directory, { recursive: true, force: true });
});

describe("the embedded router's signed file URLs", () => {
  it("serves /files/{id}/file-preview under its mount path, with no key", async () => {
    const store = await openStore({ databaseUrl });
    const workspace = aWorkspace();
    await store.repositories.workspaces.save(workspace);
    await store.repositories.workspaces.saveMember(aMember(workspace.id, { role: "owner" }));
    const key = await issueKey(store.repositories, workspace.id);
    await store.close();
    const headers = { authorization: `Bearer ${key}` };
    const dataset = (await (
      await fetch(`${base}/datasets`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({ name: "Embedded", indexing_technique: "economy" }),
      })
    ).json()) as { id: string };
    const form = uploadForm([{ name: "note.txt", content: "Embedded bytes." }], {
      process_rule: { mode: "automatic" },
    });
    const created = (await (
      await fetch(`${base}/datasets/${dataset.id}/document/create-by-file`, {
        method: "POST",
        headers: { ...headers, "content-type": form.contentType },
        body: form.body,
      })
    ).json()) as { document: { id: string } };
    const { url } = (await (
      await fetch(`${base}/datasets/${dataset.id}/documents/${created.document.id}/download`, { headers })
    ).json()) as { url: string };
    const { pathname, search } = new URL(url);
    const file = await fetch(`${base}${pathname}${search}`);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe("Embedded bytes.");
    expect((await fetch(`${base}${pathname}`)).status).toBe(403);
  });
});
