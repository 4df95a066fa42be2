import { eng } from "stopword";
import { describe, expect, it } from "vitest";
import stem from "wink-porter2-stemmer";
import { analyze, analyzeWords, countTerms, MAX_TERM_LENGTH } from "./analyzer.js";
import { eachAsciiWord } from "./ascii-words.js";

const SEGMENTER = new Intl.Segmenter("en", { granularity: "word" });
const segmenterWords = (text: string) =>
  [...SEGMENTER.segment(text.toLowerCase())].filter((s) => s.isWordLike).map((s) => s.segment);

/** The analyzer as written first: the whole text through Intl.Segmenter, then the same rules. */
function referenceWords(text: string) {
  const stops = new Set(eng);
  return [...SEGMENTER.segment(text.normalize("NFKC").toLowerCase())]
    .filter(({ segment, isWordLike }) => isWordLike && !stops.has(segment))
    .map(({ segment }) => segment)
    .filter((word) => [...word].length <= MAX_TERM_LENGTH)
    .filter(
      (word) =>
        [...word].length > 1 ||
        /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]$/u.test(word),
    )
    .map((word) => ({
      word,
      term: /^[\p{Script=Latin}'’]+$/u.test(word) ? stem(word.replaceAll("’", "'")) : word,
    }));
}

/** A random text of `length` characters drawn from `alphabet` (a fixed sequence, the same each run). */
function randomTexts(alphabet: string[], count: number, longest: number): string[] {
  let seed = 12_345;
  const next = () => {
    seed = (seed * 48_271) % 2_147_483_647;
    return seed / 2_147_483_647;
  };
  return Array.from({ length: count }, () =>
    Array.from(
      { length: 1 + Math.floor(next() * longest) },
      () => alphabet[Math.floor(next() * alphabet.length)],
    ).join(""),
  );
}

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

  it("cuts ASCII text into the words Intl.Segmenter gives, every joining rule and its edges", () => {
    const asciiWords = (text: string) => {
      const words: string[] = [];
      eachAsciiWord(text, 0, text.length, (word) => words.push(word));
      return words;
    };
    for (const text of [
      "a:b",
      "a.b",
      "1.2",
      "1,2",
      "a,b",
      "1;2",
      "a'b",
      "1'2",
      "a.1",
      "1.a",
      "a..b",
      "e.g.",
      "3.14.15",
      "foo_bar-baz",
      'a"b',
      "x:1",
      "_",
      "__",
      "___",
      "a_.b",
      "a._b",
      "_a",
      "$5",
      "1_000",
      "a@b.com",
      "a/b",
      "Don't",
      "ABC def",
      "\ta\r\nb\u0000c\u007f",
    ])
      expect(asciiWords(text), JSON.stringify(text)).toEqual(segmenterWords(text));
    const alphabet = [..."aZq9_0.,;:'\"-/ \n\t\r!$@#", "ab", "12"];
    for (const text of randomTexts(alphabet, 20_000, 24))
      expect(asciiWords(text), JSON.stringify(text)).toEqual(segmenterWords(text));
  });

  it("analyzes text mixing ASCII and other scripts as the segmenter does the whole text", () => {
    const alphabet = [
      ..."aZ9_.,:' \n\t-",
      "é",
      "e\u0301",
      "\u0301",
      "’",
      "中文",
      "学",
      "東京",
      "Σ",
      "ς",
      "ΣΑ",
      "Ａ",
      "ｂ",
      "\u200d",
      "👍🏽",
      "ß",
      "İ",
      "ﬁ",
      "\u00a0",
      "\u3000",
      "١٢",
      "ไทย",
      "ña",
      "\u00a8",
      "Ⅻ",
      "²",
      "the",
      "boundary",
      "layers",
      "don't",
      "u.s.a",
      "3.14",
    ];
    for (const text of randomTexts(alphabet, 5_000, 30))
      expect(analyzeWords(text), JSON.stringify(text)).toEqual(referenceWords(text));
    const prose =
      "Naïve café-goers’ résumés: the boundary-layer theory of Prandtl (1904) — 边界层理论 — and “flows” at Mach 2.5, e.g. U.S. tests.";
    expect(analyzeWords(prose)).toEqual(referenceWords(prose));
    expect(analyzeWords(`${prose}\n${"plain ascii words ".repeat(50)}`)).toEqual(
      referenceWords(`${prose}\n${"plain ascii words ".repeat(50)}`),
    );
  });
});
