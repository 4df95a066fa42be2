import { describe, expect, it } from "vitest";
import { type App, ensureAppServesApi, isApp } from "./app.js";
import type { Workspace } from "./workspace.js";

const app: App = {
  id: "a1",
  workspaceId: "w1",
  name: "Helper",
  mode: "chat",
  enableApi: true,
  status: "normal",
  description: "",
  createdBy: null,
};

describe("isApp", () => {
  it("takes an app with ids that can name records and a known mode", () => {
    expect(isApp(app)).toBe(true);
    expect(isApp({ ...app, createdBy: "m1", mode: "workflow" })).toBe(true);
  });

  it.each([
    ["nothing", undefined],
    ["a string", "a1"],
    ["no id", { ...app, id: undefined }],
    ["an id with a NUL", { ...app, id: "a\u0000" }],
    ["a numeric workspace", { ...app, workspaceId: 1 }],
    ["a creator with a lone surrogate", { ...app, createdBy: "\ud800" }],
    ["an unknown mode", { ...app, mode: "bogus" }],
    ["an inherited mode", { ...app, mode: "toString" }],
  ])("refuses %s", (_label, value) => {
    expect(isApp(value)).toBe(false);
  });
});

describe("ensureAppServesApi", () => {
  const workspace: Workspace = { id: "w1", name: "Acme", status: "normal" };

  it("passes an app in service of a workspace in service", () => {
    expect(ensureAppServesApi(app, workspace)).toBe(app);
  });

  it.each([
    ["gone", undefined, workspace, "The app no longer exists."],
    ["archived", { ...app, status: "archived" as const }, workspace, "The app's status is abnormal."],
    ["without its API", { ...app, enableApi: false }, workspace, "The app's API service has been disabled."],
    [
      "archived and without its API",
      { ...app, status: "archived" as const, enableApi: false },
      workspace,
      "The app's status is abnormal.",
    ],
    [
      "of an archived workspace",
      app,
      { ...workspace, status: "archived" as const },
      "The workspace's status is archived.",
    ],
  ])("refuses an app %s with 403 and Dify's words, checked in Dify's order", (_what, given, of, message) => {
    expect(() => ensureAppServesApi(given, of)).toThrow(
      expect.objectContaining({ code: "forbidden", message }),
    );
  });
});
