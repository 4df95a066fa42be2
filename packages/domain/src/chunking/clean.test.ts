import { describe, expect, it } from "vitest";
import { cleanText } from "./clean.js";
import type { PreProcessingRule } from "./rules.js";

// Expected values: Dify's CleanProcessor.clean (the link-protecting version), run on Python 3.11
// after collapsing duplicate rule ids as process_rule_args_validate does.
describe("cleanText", () => {
  it.each<[string, string, PreProcessingRule[], string]>([
    ["always turns <| into < and |> into >", "<|im_start|>user|><|<|", [], "<im_start>user><<"],
    [
      "always deletes control characters but tab, line feed and carriage return",
      "a\u0000b\bc\vd\fe\u000Ef\u001Fg\u007Fh\ti\nj\rk",
      [],
      "abcdefgh\ti\nj\rk",
    ],
    ["always deletes ï, ¿, ¾ and U+FFFE", "naïve ¿Cómo? ¾ cup\uFFFE!", [], "nave Cómo?  cup!"],
    [
      "keeps U+0085, U+FEFF and other characters",
      "a\u0085b\uFEFFc\u200Bd€😀",
      [],
      "a\u0085b\uFEFFc\u200Bd€😀",
    ],
    [
      "squeezes three or more line breaks into two",
      "a\n\n\nb\n\n\n\n\nc\n\nd",
      [{ id: "remove_extra_spaces", enabled: true }],
      "a\n\nb\n\nc\n\nd",
    ],
    [
      "squeezes runs of two or more spaces, tabs, form feeds and wide spaces into one space",
      "a  b\t\tc \u3000d\u00A0\u00A0e\u2002\u2009f\u180E\u180Eg",
      [{ id: "remove_extra_spaces", enabled: true }],
      "a b c d e f g",
    ],
    [
      "leaves a single tab and spaces around line breaks",
      "a\tb \n c",
      [{ id: "remove_extra_spaces", enabled: true }],
      "a\tb \n c",
    ],
    [
      "removes e-mail addresses",
      "Contact test@example.com, me+tag@mail.example.org or a@b@c.d",
      [{ id: "remove_urls_emails", enabled: true }],
      "Contact ,  or a@",
    ],
    [
      "removes e-mails glued to each other",
      "a@b.c_x@y.z and .@a.. and q@.b",
      [{ id: "remove_urls_emails", enabled: true }],
      " and  and q@.b",
    ],
    [
      "removes URLs up to whitespace, closing parentheses and dots included",
      "Visit https://example.com/page. Or (see http://x.org/a) now",
      [{ id: "remove_urls_emails", enabled: true }],
      "Visit  Or (see  now",
    ],
    [
      "keeps markdown links whole",
      "Check [Google](https://google.com) or [https://a.b](https://c.d) but https://remove.me",
      [{ id: "remove_urls_emails", enabled: true }],
      "Check [Google](https://google.com) or [https://a.b](https://c.d) but ",
    ],
    [
      "keeps markdown images",
      "Image: ![diagram](https://example.com/image.png) done",
      [{ id: "remove_urls_emails", enabled: true }],
      "Image: ![diagram](https://example.com/image.png) done",
    ],
    [
      "renames an image alt that holds a ] to image",
      "![a [b]](https://x.y/z.png)",
      [{ id: "remove_urls_emails", enabled: true }],
      "![image](https://x.y/z.png)",
    ],
    [
      "loses a link with brackets in its text to URL removal",
      "[Text with [brackets] and (parens)](https://example.com)",
      [{ id: "remove_urls_emails", enabled: true }],
      "[Text with [brackets] and (parens)](",
    ],
    [
      "keeps a URL that is not http(s)",
      "ftp://files.example.com and www.example.com",
      [{ id: "remove_urls_emails", enabled: true }],
      "ftp://files.example.com and www.example.com",
    ],
    [
      "does nothing for a disabled rule",
      "a    b\n\n\n\nc x@y.z",
      [
        { id: "remove_extra_spaces", enabled: false },
        { id: "remove_urls_emails", enabled: false },
      ],
      "a    b\n\n\n\nc x@y.z",
    ],
    [
      "does nothing for remove_stopwords or an unknown id",
      "the  a\n\n\n\nan",
      [
        { id: "remove_stopwords", enabled: true },
        { id: "bogus", enabled: true },
      ],
      "the  a\n\n\n\nan",
    ],
    [
      "runs the rules in list order: spaces, then URLs",
      "Contact  a@b.c  or x",
      [
        { id: "remove_extra_spaces", enabled: true },
        { id: "remove_urls_emails", enabled: true },
      ],
      "Contact  or x",
    ],
    [
      "runs the rules in list order: URLs, then spaces",
      "Contact  a@b.c  or x",
      [
        { id: "remove_urls_emails", enabled: true },
        { id: "remove_extra_spaces", enabled: true },
      ],
      "Contact or x",
    ],
    [
      "lets the last of duplicate ids win, at the first one's place",
      "Contact  a@b.c  or x",
      [
        { id: "remove_extra_spaces", enabled: false },
        { id: "remove_urls_emails", enabled: true },
        { id: "remove_extra_spaces", enabled: true },
      ],
      "Contact  or x",
    ],
    [
      "restores a placeholder written in the text too, as Dify's str.replace does",
      "__MARKDOWN_PLACEHOLDER_0__ and [l](https://l.m)",
      [{ id: "remove_urls_emails", enabled: true }],
      "[l](https://l.m) and [l](https://l.m)",
    ],
  ])("%s", (_name, text, rules, expected) => {
    expect(cleanText(text, { pre_processing_rules: rules })).toBe(expected);
  });

  it("treats missing pre-processing rules as none", () => {
    expect(cleanText("a  <|b|>", { pre_processing_rules: null })).toBe("a  <b>");
    expect(cleanText("a  <|b|>", {})).toBe("a  <b>");
  });
});
