import type { AppMode } from "@service-api/domain";
import { APP_MODES } from "@service-api/domain";
import { anApp, aSite } from "@service-api/ports/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "./support/http.js";
import { schemaProperties } from "./support/response-schemas.js";
import { issueKey, type SeededWorkspace, seedWorkspace } from "./support/seed.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

let server: TestServer;
let world: SeededWorkspace;

beforeAll(async () => {
  server = await startTestServer({ FILES_URL: "https://files.example.com/base/" });
  world = await seedWorkspace(server.store.repositories);
});
afterAll(() => server.stop());

const getSite = (token: string) => call(server.url, "GET", "/v1/site", { token });

describe("GET /v1/site", () => {
  it.each(Object.keys(APP_MODES) as AppMode[])("answers the settings of a %s app", async (mode) => {
    const response = await getSite(world.apps[mode].key);
    expect(response.status).toBe(200);
    expect(response.body.title).toBe(`${mode} site`);
  });

  it("answers every field of the settings", async () => {
    const { repositories } = server.store;
    const app = anApp(world.workspace.id, { mode: "chat" });
    await repositories.apps.save(app);
    const site = aSite(app.id, {
      title: "Helpdesk",
      chatColorTheme: "#123456",
      chatColorThemeInverted: true,
      iconType: "image",
      icon: "8f2e1c4a-0b7d-4e3f-9a6c-5d4b3a2f1e0d",
      iconBackground: "#000000",
      description: "Ask us",
      copyright: "Acme",
      privacyPolicy: "https://acme.example/privacy",
      inputPlaceholder: "Type here…",
      customDisclaimer: "No advice.",
      defaultLanguage: "de-DE",
      showWorkflowSteps: true,
      useIconAsAnswerIcon: false,
    });
    await repositories.apps.saveSite(site);
    const response = await getSite(await issueKey(repositories, world.workspace.id, app.id));
    expect(response.body).toEqual({
      title: "Helpdesk",
      chat_color_theme: "#123456",
      chat_color_theme_inverted: true,
      icon_type: "image",
      icon: site.icon,
      icon_background: "#000000",
      icon_url: `https://files.example.com/base/files/${site.icon}/file-preview`,
      description: "Ask us",
      copyright: "Acme",
      privacy_policy: "https://acme.example/privacy",
      input_placeholder: "Type here…",
      custom_disclaimer: "No advice.",
      default_language: "de-DE",
      show_workflow_steps: true,
      use_icon_as_answer_icon: false,
    });
    expect(Object.keys(response.body).sort()).toEqual(schemaProperties("getChatWebAppSettings").sort());
  });

  it("answers a null icon_url and input_placeholder for an emoji icon without placeholder", async () => {
    const response = await getSite(world.apps.chat.key);
    expect(response.body).toMatchObject({ icon_type: "emoji", icon_url: null, input_placeholder: null });
  });

  it("answers 403 forbidden for an app without a site", async () => {
    const { repositories } = server.store;
    const app = anApp(world.workspace.id, { mode: "workflow" });
    await repositories.apps.save(app);
    const response = await getSite(await issueKey(repositories, world.workspace.id, app.id));
    expect(response.body).toEqual({
      status: 403,
      code: "forbidden",
      message:
        "You don't have the permission to access the requested resource. It is either read-protected or not readable by the server.",
    });
  });

  it("answers 403 for an app whose API is disabled or whose workspace is archived", async () => {
    const { repositories } = server.store;
    const app = anApp(world.workspace.id, { enableApi: false });
    await repositories.apps.save(app);
    await repositories.apps.saveSite(aSite(app.id));
    const disabled = await getSite(await issueKey(repositories, world.workspace.id, app.id));
    expect(disabled.body).toEqual({
      status: 403,
      code: "forbidden",
      message: "The app's API service has been disabled.",
    });
  });
});

describe("the JSON answer", () => {
  it("declares UTF-8 JSON and the exact length of the body, non-ASCII included", async () => {
    const { repositories } = server.store;
    const app = anApp(world.workspace.id, { mode: "chat" });
    await repositories.apps.save(app);
    await repositories.apps.saveSite(aSite(app.id, { title: "Überblick — 概要 🚀" }));
    const token = await issueKey(repositories, world.workspace.id, app.id);
    const response = await fetch(`${server.url}/v1/site`, { headers: { authorization: `Bearer ${token}` } });
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(Number(response.headers.get("content-length"))).toBe(bytes.length);
    expect(JSON.parse(new TextDecoder().decode(bytes)).title).toBe("Überblick — 概要 🚀");
    expect(response.headers.get("x-request-id")).toBeTruthy();

    const head = await fetch(`${server.url}/v1/site`, {
      method: "HEAD",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get("content-length"))).toBe(bytes.length);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });
});
