import { describe, expect, it } from "vitest";
import { type App, isApp } from "./app.js";

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
