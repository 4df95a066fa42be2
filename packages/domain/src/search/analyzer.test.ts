import { describe, expect, it } from "vitest";
import { analyze, countTerms } from "./analyzer.js";

describe("analyze", () => {
  it("folds case and width, drops English stop words and lone letters, stems by Porter2", () => {
    expect(analyze("The Boundary-Layers of SUPERSONIC flows, generously heated: a 2nd try.")).toEqual([
      "boundari",
      "layer",
      "superson",
      "flow",
      "generous",
      "heat",
      "2nd",
      "tri",
    ]);
    expect(analyze("ＡＢＣ　Ｆｌｉｅｓ")).toEqual(["abc", "fli"]);
    expect(analyze("x = 5 and y")).toEqual([]);
  });

  it("cuts Chinese and Japanese into words, keeping one-character words", () => {
    expect(analyze("我们在北京大学学习机器学习")).toEqual([
      "我们",
      "在",
      "北京",
      "大学",
      "学习",
      "机器",
      "学习",
    ]);
    expect(analyze("東京都に住んでいます")).toEqual(["東京", "都", "に", "住", "んで", "い", "ます"]);
    expect(analyze("水")).toEqual(["水"]);
  });

  it("leaves non-Latin words unstemmed and drops punctuation, emoji and overlong runs", () => {
    expect(analyze("Привет, мир! 👋 ok")).toEqual(["привет", "мир", "ok"]);
    expect(analyze(`${"a".repeat(65)} ${"b".repeat(64)}`)).toEqual(["b".repeat(64)]);
    expect(analyze('"NEAR" OR * AND ( )')).toEqual(["near"]);
  });

  it("counts terms", () => {
    expect(countTerms(["a", "b", "a"])).toEqual({ a: 2, b: 1 });
    expect(countTerms(analyze("constructor constructor toString"))).toEqual({ constructor: 2, tostr: 1 });
  });
});
