import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { chunkDocument } from "./chunk-document.js";
import type { ChildChunkDraft, ChunkDraft } from "./drafts.js";
import {
  AUTOMATIC_RULES,
  type ChunkingMode,
  type PreProcessingRule,
  type ProcessRuleRules,
  type StoredRules,
} from "./rules.js";

// Every expected chunk below was produced by running a reconstruction of Dify's own Python
// (text_splitter.py and fixed_text_splitter.py @ 02251d52, _get_splitter, CleanProcessor,
// remove_leading_symbols, the paragraph and parent-child transforms) on the same input, with one
// change: custom separators decoded by our fix (non-ASCII kept).

// Public-domain prose: Lincoln, Melville, the Tao Te Ching, Natsume Soseki.
const GETTYSBURG =
  "Four score and seven years ago our fathers brought forth on this continent, a new nation, conceived in Liberty, and dedicated to the proposition that all men are created equal.\n\nNow we are engaged in a great civil war, testing whether that nation, or any nation so conceived and so dedicated, can long endure. We are met on a great battle-field of that war. We have come to dedicate a portion of that field, as a final resting place for those who here gave their lives that that nation might live. It is altogether fitting and proper that we should do this.\n\n\n\nBut, in a larger sense, we can not dedicate -- we can not consecrate -- we can not hallow -- this ground.  The brave men, living and dead, who struggled here, have consecrated it, far above our poor power to add or detract. The world will little note, nor long remember what we say here, but it can never forget what they did here. It is for us the living, rather, to be dedicated here to the unfinished work which they who fought here have thus far so nobly advanced. It is rather for us to be here dedicated to the great task remaining before us -- that from these honored dead we take increased devotion to that cause for which they gave the last full measure of devotion -- that we here highly resolve that these dead shall not have died in vain -- that this nation, under God, shall have a new birth of freedom -- and that government of the people, by the people, for the people, shall not perish from the earth.\n";
const MOBY_DICK =
  "# Loomings\n\nCall me Ishmael. Some years ago—never mind how long precisely—having little or no money in my purse, and nothing particular to interest me on shore, I thought I would sail about a little and see the watery part of the world. It is a way I have of driving off the spleen and regulating the circulation.\nWhenever I find myself growing grim about the mouth; whenever it is a damp, drizzly November in my soul; whenever I find myself involuntarily pausing before coffin warehouses, and bringing up the rear of every funeral I meet; then, I account it high time to get to sea as soon as I can.";
const TAO =
  "道可道，非常道。名可名，非常名。无名天地之始；有名万物之母。故常无欲，以观其妙；常有欲，以观其徼。此两者，同出而异名，同谓之玄。玄之又玄，众妙之门。天下皆知美之为美，斯恶已。皆知善之为善，斯不善已。故有无相生，难易相成，长短相形，高下相倾，音声相和，前后相随。是以圣人处无为之事，行不言之教；万物作焉而不辞，生而不有，为而不恃，功成而弗居。夫唯弗居，是以不去。上善若水。水善利万物而不争，处众人之所恶，故几于道。居善地，心善渊，与善仁，言善信，政善治，事善能，动善时。夫唯不争，故无尤。知人者智，自知者明。胜人者有力，自胜者强。知足者富。强行者有志。不失其所者久。死而不亡者寿。";
const NEKO =
  "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。何でも薄暗いじめじめした所でニャーニャー泣いていた事だけは記憶している。吾輩はここで始めて人間というものを見た。しかもあとで聞くとそれは書生という人間中で一番獰悪な種族であったそうだ。";

/** A chunk; Dify hashes the text before leading symbols (or a leading stop) went, plus "None". */
const draft = (content: string, hashed = content, children: ChildChunkDraft[] = []): ChunkDraft => ({
  content,
  hashSource: `${hashed}None`,
  children,
});
const child = (content: string, hashed = content): ChildChunkDraft => ({
  content,
  hashSource: `${hashed}None`,
});

const custom = (
  separator: string,
  max_tokens: number,
  chunk_overlap = 0,
  pre_processing_rules: PreProcessingRule[] = [],
): ProcessRuleRules => ({ pre_processing_rules, segmentation: { separator, max_tokens, chunk_overlap } });

interface Case {
  name: string;
  units: string[];
  mode: ChunkingMode;
  rules: StoredRules;
  chunks: ChunkDraft[];
}

describe("chunkDocument in automatic mode (text_model)", () => {
  it.each<Case>([
    {
      name: "splits Lincoln's address at paragraphs, then sentences, with 50 characters of overlap",
      units: [GETTYSBURG],
      mode: "automatic",
      rules: AUTOMATIC_RULES,
      chunks: [
        draft(
          "Four score and seven years ago our fathers brought forth on this continent, a new nation, conceived in Liberty, and dedicated to the proposition that all men are created equal.",
        ),
        draft(
          "Now we are engaged in a great civil war, testing whether that nation, or any nation so conceived and so dedicated, can long endure. We are met on a great battle-field of that war. We have come to dedicate a portion of that field, as a final resting place for those who here gave their lives that that nation might live. It is altogether fitting and proper that we should do this.",
        ),
        draft(
          "But, in a larger sense, we can not dedicate -- we can not consecrate -- we can not hallow -- this ground. The brave men, living and dead, who struggled here, have consecrated it, far above our poor power to add or detract. The world will little note, nor long remember what we say here, but it can never forget what they did here. It is for us the living, rather, to be dedicated here to the unfinished work which they who fought here have thus far so nobly advanced.",
        ),
        draft(
          "It is rather for us to be here dedicated to the great task remaining before us -- that from these honored dead we take increased devotion to that cause for which they gave the last full measure of devotion -- that we here highly resolve that these dead shall not have died in vain -- that this nation, under God, shall have a new birth of freedom -- and that government of the people, by the people, for the people, shall not perish from the earth.",
        ),
      ],
    },
    {
      name: "drops a heading's # and keeps single line breaks inside a chunk",
      units: [MOBY_DICK],
      mode: "automatic",
      rules: AUTOMATIC_RULES,
      chunks: [
        draft("Loomings", "# Loomings"),
        draft(
          "Call me Ishmael. Some years ago—never mind how long precisely—having little or no money in my purse, and nothing particular to interest me on shore, I thought I would sail about a little and see the watery part of the world.",
        ),
        draft(
          "It is a way I have of driving off the spleen and regulating the circulation.\nWhenever I find myself growing grim about the mouth; whenever it is a damp, drizzly November in my soul; whenever I find myself involuntarily pausing before coffin warehouses, and bringing up the rear of every funeral I meet; then, I account it high time to get to sea as soon as I can.",
        ),
      ],
    },
    {
      name: "splits Chinese without spaces at 。 and overlaps whole sentences",
      units: [TAO + TAO],
      mode: "automatic",
      rules: AUTOMATIC_RULES,
      chunks: [
        draft(
          "道可道，非常道。名可名，非常名。无名天地之始；有名万物之母。故常无欲，以观其妙；常有欲，以观其徼。此两者，同出而异名，同谓之玄。玄之又玄，众妙之门。天下皆知美之为美，斯恶已。皆知善之为善，斯不善已。故有无相生，难易相成，长短相形，高下相倾，音声相和，前后相随。是以圣人处无为之事，行不言之教；万物作焉而不辞，生而不有，为而不恃，功成而弗居。夫唯弗居，是以不去。上善若水。水善利万物而不争，处众人之所恶，故几于道。居善地，心善渊，与善仁，言善信，政善治，事善能，动善时。夫唯不争，故无尤。知人者智，自知者明。胜人者有力，自胜者强。知足者富。强行者有志。不失其所者久。死而不亡者寿。道可道，非常道。名可名，非常名。无名天地之始；有名万物之母。故常无欲，以观其妙；常有欲，以观其徼。此两者，同出而异名，同谓之玄。玄之又玄，众妙之门。天下皆知美之为美，斯恶已。皆知善之为善，斯不善已。故有无相生，难易相成，长短相形，高下相倾，音声相和，前后相随。是以圣人处无为之事，行不言之教；万物作焉而不辞，生而不有，为而不恃，功成而弗居。夫唯弗居，是以不去。上善若水。水善利万物而不争，处众人之所恶，故几于道。",
        ),
        draft(
          "夫唯弗居，是以不去。上善若水。水善利万物而不争，处众人之所恶，故几于道。居善地，心善渊，与善仁，言善信，政善治，事善能，动善时。夫唯不争，故无尤。知人者智，自知者明。胜人者有力，自胜者强。知足者富。强行者有志。不失其所者久。死而不亡者寿。",
        ),
      ],
    },
    {
      name: "keeps a short Japanese text as one chunk",
      units: [NEKO],
      mode: "automatic",
      rules: AUTOMATIC_RULES,
      chunks: [
        draft(
          "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。何でも薄暗いじめじめした所でニャーニャー泣いていた事だけは記憶している。吾輩はここで始めて人間というものを見た。しかもあとで聞くとそれは書生という人間中で一番獰悪な種族であったそうだ。",
        ),
      ],
    },
    {
      name: "counts emoji as one character each: 1,200 emoji make chunks of 500 with 50 of overlap",
      units: ["😀".repeat(1200)],
      mode: "automatic",
      rules: AUTOMATIC_RULES,
      chunks: [draft("😀".repeat(500)), draft("😀".repeat(500)), draft("😀".repeat(300))],
    },
    {
      name: "counts astral letters as one character each",
      units: ["𝒳𝒴 ".repeat(300)],
      mode: "automatic",
      rules: AUTOMATIC_RULES,
      chunks: [draft(`${"𝒳𝒴 ".repeat(165)}𝒳𝒴`), draft(`${"𝒳𝒴 ".repeat(149)}𝒳𝒴`)],
    },
    {
      name: "falls to single characters, with overlap, for a word longer than a chunk",
      units: ["a".repeat(1200)],
      mode: "automatic",
      rules: AUTOMATIC_RULES,
      chunks: [draft("a".repeat(500)), draft("a".repeat(500)), draft("a".repeat(300))],
    },
    {
      name: "drops line breaks when it falls to single characters",
      units: [`${"x".repeat(300)}\n${"y".repeat(300)}`],
      mode: "automatic",
      rules: AUTOMATIC_RULES,
      chunks: [draft(`${"x".repeat(300)}${"y".repeat(200)}`), draft("y".repeat(150))],
    },
    {
      name: "makes no chunk of separators only",
      units: ["\n\n\n\n"],
      mode: "automatic",
      rules: AUTOMATIC_RULES,
      chunks: [],
    },
    {
      name: "makes no chunk of whitespace only",
      units: [" \t \u3000 "],
      mode: "automatic",
      rules: AUTOMATIC_RULES,
      chunks: [],
    },
    {
      name: "makes no chunk of an empty text",
      units: [""],
      mode: "automatic",
      rules: AUTOMATIC_RULES,
      chunks: [],
    },
    {
      name: "keeps a BOM alone as a one-character chunk (Python's strip keeps U+FEFF)",
      units: ["\uFEFF"],
      mode: "automatic",
      rules: AUTOMATIC_RULES,
      chunks: [draft("\uFEFF")],
    },
    {
      name: "strips a trailing U+0085 (Python whitespace)",
      units: ["end\u0085"],
      mode: "automatic",
      rules: AUTOMATIC_RULES,
      chunks: [draft("end")],
    },
    {
      name: "turns <|endoftext|> into <endoftext>",
      units: ["before <|endoftext|> after"],
      mode: "automatic",
      rules: AUTOMATIC_RULES,
      chunks: [draft("before <endoftext> after")],
    },
    {
      name: "deletes ï, ¿ and ¾ (Dify's invalid-character class)",
      units: ["A naïve ¿question? ¾ cup"],
      mode: "automatic",
      rules: AUTOMATIC_RULES,
      chunks: [draft("A nave question? cup")],
    },
    {
      name: "squeezes runs of spaces and three or more line breaks (automatic rules)",
      units: ["Lots   of\t\tspace\n\n\n\n\nhere"],
      mode: "automatic",
      rules: AUTOMATIC_RULES,
      chunks: [draft("Lots of space\n\nhere")],
    },
    {
      name: "keeps URLs and e-mails (automatic rules do not remove them)",
      units: ["Mail ada@example.com or see https://example.com/docs."],
      mode: "automatic",
      rules: AUTOMATIC_RULES,
      chunks: [draft("Mail ada@example.com or see https://example.com/docs.")],
    },
    {
      name: "never merges two units (rows), however short",
      units: ["name: Ada;age: 36", "name: Alan;age: 41", ""],
      mode: "automatic",
      rules: AUTOMATIC_RULES,
      chunks: [draft("name: Ada;age: 36"), draft("name: Alan;age: 41")],
    },
    {
      name: "strips wide spaces, then drops a leading em dash",
      units: ["\u3000\u2003— dash-led"],
      mode: "automatic",
      rules: AUTOMATIC_RULES,
      chunks: [draft("dash-led", "— dash-led")],
    },
  ])("$name", ({ units, mode, rules, chunks }) => {
    expect(chunkDocument(units, mode, rules, "text_model")).toEqual(chunks);
  });
});

describe("chunkDocument with a custom rule (text_model)", () => {
  it.each<Case>([
    {
      name: "makes each line a chunk with \\n, dropping blank lines, never merging short ones",
      units: ["# Title\nfirst line\n\n  \nsecond line\n- item\n1. numbered"],
      mode: "custom",
      rules: custom("\n", 100),
      chunks: [
        draft("Title", "# Title"),
        draft("first line"),
        draft("second line"),
        draft("- item"),
        draft("1. numbered"),
      ],
    },
    {
      name: "splits Lincoln's address at \\n\\n and a long paragraph at sentences, with overlap inside it only",
      units: [GETTYSBURG],
      mode: "custom",
      rules: custom("\n\n", 300, 60),
      chunks: [
        draft(
          "Four score and seven years ago our fathers brought forth on this continent, a new nation, conceived in Liberty, and dedicated to the proposition that all men are created equal.",
        ),
        draft(
          "Now we are engaged in a great civil war, testing whether that nation, or any nation so conceived and so dedicated, can long endure. We are met on a great battle-field of that war.",
        ),
        draft(
          "We are met on a great battle-field of that war. We have come to dedicate a portion of that field, as a final resting place for those who here gave their lives that that nation might live. It is altogether fitting and proper that we should do this.",
        ),
        draft(
          "But, in a larger sense, we can not dedicate -- we can not consecrate -- we can not hallow -- this ground.  The brave men, living and dead, who struggled here, have consecrated it, far above our poor power to add or detract.",
        ),
        draft(
          "The world will little note, nor long remember what we say here, but it can never forget what they did here. It is for us the living, rather, to be dedicated here to the unfinished work which they who fought here have thus far so nobly advanced.",
        ),
        draft(
          "It is rather for us to be here dedicated to the great task remaining before us -- that from these honored dead we take increased devotion to that cause for which they gave the last full measure of devotion -- that we here highly resolve that these dead shall not have died in vain -- that this",
        ),
        draft(
          "that these dead shall not have died in vain -- that this nation, under God, shall have a new birth of freedom -- and that government of the people, by the people, for the people, shall not perish from the earth.",
        ),
      ],
    },
    {
      name: "splits at 。 (our fix: Dify mangles non-ASCII separators)",
      units: [TAO],
      mode: "custom",
      rules: custom("。", 50),
      chunks: [
        draft("道可道，非常道"),
        draft("名可名，非常名"),
        draft("无名天地之始；有名万物之母"),
        draft("故常无欲，以观其妙；常有欲，以观其徼"),
        draft("此两者，同出而异名，同谓之玄"),
        draft("玄之又玄，众妙之门"),
        draft("天下皆知美之为美，斯恶已"),
        draft("皆知善之为善，斯不善已"),
        draft("故有无相生，难易相成，长短相形，高下相倾，音声相和，前后相随"),
        draft("是以圣人处无为之事，行不言之教；万物作焉而不辞，生而不有，为而不恃，功成而弗居"),
        draft("夫唯弗居，是以不去"),
        draft("上善若水"),
        draft("水善利万物而不争，处众人之所恶，故几于道"),
        draft("居善地，心善渊，与善仁，言善信，政善治，事善能，动善时"),
        draft("夫唯不争，故无尤"),
        draft("知人者智，自知者明"),
        draft("胜人者有力，自胜者强"),
        draft("知足者富"),
        draft("强行者有志"),
        draft("不失其所者久"),
        draft("死而不亡者寿"),
      ],
    },
    {
      name: "splits at \\u3002 written as an escape, as Dify does",
      units: [TAO],
      mode: "custom",
      rules: custom("\\u3002", 50),
      chunks: [
        draft("道可道，非常道"),
        draft("名可名，非常名"),
        draft("无名天地之始；有名万物之母"),
        draft("故常无欲，以观其妙；常有欲，以观其徼"),
        draft("此两者，同出而异名，同谓之玄"),
        draft("玄之又玄，众妙之门"),
        draft("天下皆知美之为美，斯恶已"),
        draft("皆知善之为善，斯不善已"),
        draft("故有无相生，难易相成，长短相形，高下相倾，音声相和，前后相随"),
        draft("是以圣人处无为之事，行不言之教；万物作焉而不辞，生而不有，为而不恃，功成而弗居"),
        draft("夫唯弗居，是以不去"),
        draft("上善若水"),
        draft("水善利万物而不争，处众人之所恶，故几于道"),
        draft("居善地，心善渊，与善仁，言善信，政善治，事善能，动善时"),
        draft("夫唯不争，故无尤"),
        draft("知人者智，自知者明"),
        draft("胜人者有力，自胜者强"),
        draft("知足者富"),
        draft("强行者有志"),
        draft("不失其所者久"),
        draft("死而不亡者寿"),
      ],
    },
    {
      name: "splits Japanese at 。",
      units: [NEKO],
      mode: "custom",
      rules: custom("。", 50),
      chunks: [
        draft("吾輩は猫である"),
        draft("名前はまだ無い"),
        draft("どこで生れたかとんと見当がつかぬ"),
        draft("何でも薄暗いじめじめした所でニャーニャー泣いていた事だけは記憶している"),
        draft("吾輩はここで始めて人間というものを見た"),
        draft("しかもあとで聞くとそれは書生という人間中で一番獰悪な種族であったそうだ"),
      ],
    },
    {
      name: "splits at ，",
      units: ["苹果，香蕉，橙子，葡萄"],
      mode: "custom",
      rules: custom("，", 50),
      chunks: [draft("苹果"), draft("香蕉"), draft("橙子"), draft("葡萄")],
    },
    {
      name: "splits at ***",
      units: ["Part one***Part two*** Part three"],
      mode: "custom",
      rules: custom("***", 50),
      chunks: [draft("Part one"), draft("Part two"), draft("Part three", " Part three")],
    },
    {
      name: "overlaps whole sentences, at most 30 characters, inside a part longer than the chunk",
      units: ["One short sentence. Another one here. A third follows. The fourth ends it.\nA separate line."],
      mode: "custom",
      rules: custom("\n", 50, 30),
      chunks: [
        draft("One short sentence. Another one here."),
        draft("Another one here. A third follows."),
        draft("A third follows. The fourth ends it."),
        draft("A separate line."),
      ],
    },
    {
      name: "glues words when a long part is split at spaces",
      units: ['int main() { printf("hi"); // note the greeting goes to standard output here\n  return 0; }'],
      mode: "custom",
      rules: custom("\n", 50),
      chunks: [
        draft('intmain(){printf("hi");//notethegreetinggoesto'),
        draft("standardoutputhere"),
        draft("return 0; }", "  return 0; }"),
      ],
    },
    {
      name: "takes \\\\n (an escaped backslash, then n) as no separator at all",
      units: ["line one\nline two"],
      mode: "custom",
      rules: custom("\\\\n", 100),
      chunks: [draft("line one\nline two")],
    },
    {
      name: "takes a backslash-n as a line break",
      units: ["line one\nline two"],
      mode: "custom",
      rules: custom("\\n", 100),
      chunks: [draft("line one"), draft("line two")],
    },
    {
      name: "lets a chunk pass its size by a piece when the overlap equals the size",
      units: ["Alpha beta. Gamma delta. Epsilon zeta. Eta theta iota. Kappa lambda mu."],
      mode: "custom",
      rules: custom("\n", 30, 30),
      chunks: [
        draft("Alpha beta. Gamma delta."),
        draft("Gamma delta. Epsilon zeta."),
        draft("Epsilon zeta. Eta theta iota."),
        draft("Kappa lambda mu."),
      ],
    },
    {
      name: "keeps a line of exactly the chunk size whole, but sends a word of that size to characters",
      units: ["ab cd  efg\nabcdefghij klm"],
      mode: "custom",
      rules: custom("\n", 10),
      chunks: [draft("ab cd  efg"), draft("abcdefghij"), draft("klm")],
    },
    {
      name: "sends a word of exactly the chunk size down to characters, where its line break goes",
      units: ["ab\ncdefghi jk"],
      mode: "custom",
      rules: custom("***", 10),
      chunks: [draft("abcdefghi"), draft("jk")],
    },
    {
      name: "drops line breaks when a long part falls to characters",
      units: ["abcdef\nghijkl"],
      mode: "custom",
      rules: custom("***", 10),
      chunks: [draft("abcdefghij"), draft("kl")],
    },
    {
      name: "does not loop with a chunk size of 1",
      units: ["abc de"],
      mode: "custom",
      rules: custom("\n", 1),
      chunks: [draft("a"), draft("b"), draft("c"), draft("d"), draft("e")],
    },
    {
      name: "splits a long run of characters into windows overlapping by 10",
      units: ["a".repeat(120)],
      mode: "custom",
      rules: custom("\n", 50, 10),
      chunks: [draft("a".repeat(50)), draft("a".repeat(50)), draft("a".repeat(40))],
    },
    {
      name: "counts emoji as one character in fixed windows",
      units: ["🎉".repeat(120)],
      mode: "custom",
      rules: custom("\n", 50),
      chunks: [draft("🎉".repeat(50)), draft("🎉".repeat(50)), draft("🎉".repeat(20))],
    },
    {
      name: "keeps a BOM-only paragraph as a one-character chunk",
      units: ["First.\n\n\uFEFF\n\nThird."],
      mode: "custom",
      rules: custom("\n\n", 100),
      chunks: [draft("First."), draft("\uFEFF"), draft("Third.")],
    },
    {
      name: "keeps a # behind a space (leading-symbol removal runs before the strip)",
      units: [" # H\n## Heading"],
      mode: "custom",
      rules: custom("\n", 100),
      chunks: [draft("# H", " # H"), draft("Heading", "## Heading")],
    },
    {
      name: "removes e-mails after squeezing spaces, leaving two",
      units: ["Contact  a@b.c  or x"],
      mode: "custom",
      rules: custom("\n", 100, 0, [
        { id: "remove_extra_spaces", enabled: true },
        { id: "remove_urls_emails", enabled: true },
      ]),
      chunks: [draft("Contact  or x")],
    },
    {
      name: "applies the rules in list order",
      units: ["Contact  a@b.c  or x"],
      mode: "custom",
      rules: custom("\n", 100, 0, [
        { id: "remove_urls_emails", enabled: true },
        { id: "remove_extra_spaces", enabled: true },
      ]),
      chunks: [draft("Contact or x")],
    },
    {
      name: "lets the last of duplicate rules win, at the first one's place",
      units: ["Contact  a@b.c  or x"],
      mode: "custom",
      rules: custom("\n", 100, 0, [
        { id: "remove_extra_spaces", enabled: true },
        { id: "remove_urls_emails", enabled: true },
        { id: "remove_extra_spaces", enabled: false },
      ]),
      chunks: [draft("Contact    or x")],
    },
    {
      name: "does nothing for remove_stopwords",
      units: ["the  a an"],
      mode: "custom",
      rules: custom("\n", 100, 0, [{ id: "remove_stopwords", enabled: true }]),
      chunks: [draft("the  a an")],
    },
    {
      name: "splits like custom in hierarchical mode",
      units: ["one\ntwo"],
      mode: "hierarchical",
      rules: custom("\n", 100),
      chunks: [draft("one"), draft("two")],
    },
    {
      name: "keeps a markdown link at a chunk's start whole",
      units: ["[a link](https://example.com) after\n[not a link] x"],
      mode: "custom",
      rules: custom("\n", 100),
      chunks: [draft("[a link](https://example.com) after"), draft("[not a link] x")],
    },
    {
      name: "keeps a CRLF separator from splitting text without carriage returns",
      units: ["a\nb"],
      mode: "custom",
      rules: custom("\\r\\n", 100),
      chunks: [draft("a\nb")],
    },
  ])("$name", ({ units, mode, rules, chunks }) => {
    expect(chunkDocument(units, mode, rules, "text_model")).toEqual(chunks);
  });
});

describe("chunkDocument for hierarchical_model", () => {
  it.each<Case>([
    {
      name: "splits parents at \\n\\n and children at \\n",
      units: [GETTYSBURG],
      mode: "hierarchical",
      rules: {
        pre_processing_rules: [],
        segmentation: { separator: "\n\n", max_tokens: 500, chunk_overlap: 0 },
        parent_mode: "paragraph",
        subchunk_segmentation: { separator: "\n", max_tokens: 120, chunk_overlap: 0 },
      },
      chunks: [
        draft(
          "Four score and seven years ago our fathers brought forth on this continent, a new nation, conceived in Liberty, and dedicated to the proposition that all men are created equal.",
          undefined,
          [
            child(
              "Fourscoreandsevenyearsagoourfathersbroughtforthonthiscontinent,anewnation,conceivedinLiberty,anddedicatedtothe",
            ),
            child("propositionthatallmenarecreatedequal."),
          ],
        ),
        draft(
          "Now we are engaged in a great civil war, testing whether that nation, or any nation so conceived and so dedicated, can long endure. We are met on a great battle-field of that war. We have come to dedicate a portion of that field, as a final resting place for those who here gave their lives that that nation might live. It is altogether fitting and proper that we should do this.",
          undefined,
          [
            child(
              "Now we are engaged in a great civil war, testing whether that nation, or any nation so conceived and so dedicated, can",
            ),
            child("long endure."),
            child("We are met on a great battle-field of that war."),
            child(
              "We have come to dedicate a portion of that field, as a final resting place for those who here gave their lives that",
            ),
            child("that nation might live."),
            child("It is altogether fitting and proper that we should do this."),
          ],
        ),
        draft(
          "But, in a larger sense, we can not dedicate -- we can not consecrate -- we can not hallow -- this ground.  The brave men, living and dead, who struggled here, have consecrated it, far above our poor power to add or detract. The world will little note, nor long remember what we say here, but it can never forget what they did here. It is for us the living, rather, to be dedicated here to the unfinished work which they who fought here have thus far so nobly advanced.",
          undefined,
          [
            child(
              "But, in a larger sense, we can not dedicate -- we can not consecrate -- we can not hallow -- this ground.",
            ),
            child(
              "The brave men, living and dead, who struggled here, have consecrated it, far above our poor power to add or detract.",
            ),
            child(
              "The world will little note, nor long remember what we say here, but it can never forget what they did here.",
            ),
            child(
              "It is for us the living, rather, to be dedicated here to the unfinished work which they who fought here have thus far",
            ),
            child("so nobly advanced."),
          ],
        ),
        draft(
          "It is rather for us to be here dedicated to the great task remaining before us -- that from these honored dead we take increased devotion to that cause for which they gave the last full measure of devotion -- that we here highly resolve that these dead shall not have died in vain -- that this nation, under God, shall have a new birth of freedom -- and that government of the people, by the people, for the people, shall not perish from the earth.",
          undefined,
          [
            child(
              "Itisratherforustobeherededicatedtothegreattaskremainingbeforeus--thatfromthesehonoreddeadwetakeincreaseddevotiontothat",
            ),
            child(
              "causeforwhichtheygavethelastfullmeasureofdevotion--thatweherehighlyresolvethatthesedeadshallnothavediedinvain--thatthis",
            ),
            child(
              "nation,underGod,shallhaveanewbirthoffreedom--andthatgovernmentofthepeople,bythepeople,forthepeople,shallnotperishfromthe",
            ),
            child("earth."),
          ],
        ),
      ],
    },
    {
      name: "drops one leading . or 。 of a parent, then strips it, and keeps other parents' whitespace",
      units: ["。开头的段落\n\n. dotted start \n\n  indented  \n\n# kept heading"],
      mode: "hierarchical",
      rules: {
        pre_processing_rules: [],
        segmentation: { separator: "\n\n", max_tokens: 200, chunk_overlap: 0 },
        parent_mode: "paragraph",
        subchunk_segmentation: { separator: "\n", max_tokens: 60, chunk_overlap: 0 },
      },
      chunks: [
        draft("开头的段落", "。开头的段落", [child("开头的段落")]),
        draft("dotted start", ". dotted start ", [child("dotted start")]),
        draft("  indented  ", undefined, [child("  indented  ")]),
        draft("# kept heading", undefined, [child("# kept heading")]),
      ],
    },
    {
      name: "drops one leading . or 。 of a child",
      units: ["First child.\n.second child\n。第三\n  spaced  "],
      mode: "hierarchical",
      rules: {
        pre_processing_rules: [],
        segmentation: { separator: "\n\n", max_tokens: 200, chunk_overlap: 0 },
        parent_mode: "paragraph",
        subchunk_segmentation: { separator: "\n", max_tokens: 60, chunk_overlap: 0 },
      },
      chunks: [
        draft("First child.\n.second child\n。第三\n  spaced  ", undefined, [
          child("First child."),
          child("second child", ".second child"),
          child("第三", "。第三"),
          child("  spaced  "),
        ]),
      ],
    },
    {
      name: "cleans each unit in paragraph mode and never merges units",
      units: ["Row  one <|x|>", "Row two"],
      mode: "hierarchical",
      rules: {
        pre_processing_rules: [{ id: "remove_extra_spaces", enabled: true }],
        segmentation: { separator: "\n\n", max_tokens: 200, chunk_overlap: 0 },
        parent_mode: "paragraph",
        subchunk_segmentation: { separator: "\n", max_tokens: 60, chunk_overlap: 0 },
      },
      chunks: [
        draft("Row one <x>", undefined, [child("Row one <x>")]),
        draft("Row two", undefined, [child("Row two")]),
      ],
    },
    {
      name: "joins full-doc units with \\n, uncleaned, into one parent",
      units: ["Row  one <|x|>", "Row\n\n\n\ntwo"],
      mode: "hierarchical",
      rules: {
        pre_processing_rules: [{ id: "remove_extra_spaces", enabled: true }],
        segmentation: { separator: "\n\n", max_tokens: 200, chunk_overlap: 0 },
        parent_mode: "full-doc",
        subchunk_segmentation: { separator: "\n", max_tokens: 60, chunk_overlap: 0 },
      },
      chunks: [
        draft("Row  one <|x|>\nRow\n\n\n\ntwo", undefined, [
          child("Row  one <|x|>"),
          child("Row"),
          child("two"),
        ]),
      ],
    },
    {
      name: "splits a full-doc parent into children with overlap",
      units: [MOBY_DICK],
      mode: "hierarchical",
      rules: {
        pre_processing_rules: [],
        segmentation: { separator: "\n\n", max_tokens: 200, chunk_overlap: 0 },
        parent_mode: "full-doc",
        subchunk_segmentation: { separator: "\n", max_tokens: 100, chunk_overlap: 20 },
      },
      chunks: [
        draft(
          "# Loomings\n\nCall me Ishmael. Some years ago—never mind how long precisely—having little or no money in my purse, and nothing particular to interest me on shore, I thought I would sail about a little and see the watery part of the world. It is a way I have of driving off the spleen and regulating the circulation.\nWhenever I find myself growing grim about the mouth; whenever it is a damp, drizzly November in my soul; whenever I find myself involuntarily pausing before coffin warehouses, and bringing up the rear of every funeral I meet; then, I account it high time to get to sea as soon as I can.",
          undefined,
          [
            child("# Loomings"),
            child("Call me Ishmael."),
            child(
              "Some years ago—never mind how long precisely—having little or no money in my purse, and nothing",
            ),
            child(
              "purse, and nothing particular to interest me on shore, I thought I would sail about a little and",
            ),
            child("about a little and see the watery part of the world."),
            child("It is a way I have of driving off the spleen and regulating the circulation."),
            child(
              "WheneverIfindmyselfgrowinggrimaboutthemouth;wheneveritisadamp,drizzlyNovemberinmysoul;wheneverIfind",
            ),
            child(
              "mysoul;wheneverIfindmyselfinvoluntarilypausingbeforecoffinwarehouses,andbringinguptherearofevery",
            ),
            child("uptherearofeveryfuneralImeet;then,IaccountithightimetogettoseaassoonasIcan."),
          ],
        ),
      ],
    },
    {
      name: "makes parent-child chunks in custom mode too",
      units: ["a\n\nb"],
      mode: "custom",
      rules: {
        pre_processing_rules: [],
        segmentation: { separator: "\n\n", max_tokens: 100, chunk_overlap: 0 },
        parent_mode: "paragraph",
        subchunk_segmentation: { separator: "\n", max_tokens: 60, chunk_overlap: 0 },
      },
      chunks: [draft("a", undefined, [child("a")]), draft("b", undefined, [child("b")])],
    },
    {
      name: "makes no segments without a parent mode",
      units: ["a\n\nb"],
      mode: "custom",
      rules: custom("\n\n", 100),
      chunks: [],
    },
    {
      name: "makes no segments for automatic rules",
      units: ["a\n\nb"],
      mode: "automatic",
      rules: AUTOMATIC_RULES,
      chunks: [],
    },
  ])("$name", ({ units, mode, rules, chunks }) => {
    expect(chunkDocument(units, mode, rules, "hierarchical_model")).toEqual(chunks);
  });

  it("makes no children without subchunk_segmentation (Dify fails the document; the caller refuses it)", () => {
    const rules: StoredRules = { ...custom("\n\n", 100), parent_mode: "paragraph" };
    expect(chunkDocument(["a\n\nb"], "hierarchical", rules, "hierarchical_model")).toEqual([
      draft("a"),
      draft("b"),
    ]);
  });

  it("makes no full-doc parent of no units (Dify fails on documents[0])", () => {
    const rules: StoredRules = {
      ...custom("\n\n", 100),
      parent_mode: "full-doc",
      subchunk_segmentation: null,
    };
    expect(chunkDocument([], "hierarchical", rules, "hierarchical_model")).toEqual([]);
  });
});

describe("hashSource", () => {
  it("is the chunk before leading-symbol removal plus None, whose SHA-256 is Dify's index_node_hash", () => {
    const [heading] = chunkDocument([MOBY_DICK], "automatic", AUTOMATIC_RULES, "text_model");
    expect(heading?.hashSource).toBe("# LoomingsNone");
    // hashlib.sha256("# LoomingsNone".encode()).hexdigest(), as Dify's generate_text_hash computes it.
    expect(
      createHash("sha256")
        .update(heading?.hashSource ?? "")
        .digest("hex"),
    ).toBe("a15cda431bf3f2ddb74b812a246e57d66ddebd4d62d65c261841dd1447c03938");
  });
});

describe("chunkDocument on a long text", () => {
  // About 2 MB: 800 sections of the texts above. Counts from the Python reconstruction on the same text.
  const text = Array.from(
    { length: 800 },
    (_, index) => `Section ${index}.\n\n${GETTYSBURG}\n\n${MOBY_DICK}\n\n${TAO}${NEKO}\n\n`,
  ).join("");
  const summary = (chunks: { content: string }[]) => ({
    count: chunks.length,
    total: chunks.reduce((sum, chunk) => sum + [...chunk.content].length, 0),
    longest: Math.max(...chunks.map((chunk) => [...chunk.content].length)),
  });

  it("chunks it in automatic mode", () => {
    expect(text.length).toBe(2010290);
    expect(summary(chunkDocument([text], "automatic", AUTOMATIC_RULES, "text_model"))).toEqual({
      count: 6400,
      total: 2005368,
      longest: 467,
    });
  });

  it("chunks it with a custom rule", () => {
    const rules = custom("\n", 1000, 100, [{ id: "remove_extra_spaces", enabled: true }]);
    expect(summary(chunkDocument([text], "custom", rules, "text_model"))).toEqual({
      count: 6400,
      total: 1993490,
      longest: 916,
    });
  });

  it("chunks it as one full-doc parent", () => {
    const rules: StoredRules = {
      pre_processing_rules: [],
      segmentation: { separator: "\n\n", max_tokens: 1000, chunk_overlap: 0 },
      parent_mode: "full-doc",
      subchunk_segmentation: { separator: "。", max_tokens: 200, chunk_overlap: 20 },
    };
    const [parent] = chunkDocument([text], "hierarchical", rules, "hierarchical_model");
    const { count, total } = summary(parent?.children ?? []);
    expect({ count, total }).toEqual({ count: 35200, total: 2021490 });
  });
});
