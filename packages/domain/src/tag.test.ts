import { describe, expect, it } from "vitest";
import { eligibleTagIds, type Tag, tagNameProblem } from "./tag.js";

const tag = (id: string, workspaceId: string, type: Tag["type"] = "knowledge"): Tag => ({
  id,
  workspaceId,
  type,
  name: id,
  createdAt: 1,
});

describe("eligibleTagIds", () => {
  const found = [tag("k1", "w1"), tag("k2", "w1"), tag("app", "w1", "app"), tag("foreign", "w2")];

  it("keeps knowledge tags of the workspace in request order", () => {
    expect(eligibleTagIds(["k2", "k1"], found, "w1")).toEqual(["k2", "k1"]);
  });

  it("drops unknown, foreign and app tags", () => {
    expect(eligibleTagIds(["nope", "foreign", "app", "k1"], found, "w1")).toEqual(["k1"]);
  });

  it("collapses repeated ids", () => {
    expect(eligibleTagIds(["k1", "k1", "k2", "k1"], found, "w1")).toEqual(["k1", "k2"]);
  });
});

describe("tagNameProblem", () => {
  it.each([
    ["", "name: Name must not be blank."],
    ["   \t", "name: Name must not be blank."],
    ["\u00a0", "name: Name must not be blank."],
    ["x".repeat(51), "name: Name must be between 1 to 50 characters."],
    ["🎉".repeat(51), "name: Name must be between 1 to 50 characters."],
    ["a\u0000b", "name: Name must not contain NUL characters or unpaired surrogates."],
    ["q\ud800", "name: Name must not contain NUL characters or unpaired surrogates."],
    ["\udc00q", "name: Name must not contain NUL characters or unpaired surrogates."],
  ])("refuses %j", (name, message) => {
    expect(tagNameProblem(name)).toBe(message);
  });

  it.each([undefined, null, 123, ["a"]])("refuses %j, which is not text", (name) => {
    expect(tagNameProblem(name)).toBe("name: Name must be a string.");
  });

  it.each(["a", " padded ", "x".repeat(50), "🎉".repeat(50), "Finance"])("accepts %j as sent", (name) => {
    expect(tagNameProblem(name)).toBeUndefined();
  });
});
