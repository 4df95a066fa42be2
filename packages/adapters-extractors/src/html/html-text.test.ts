import { describe, expect, it } from "vitest";
import { declaredHtmlEncoding, htmlText } from "./html-text.js";

describe("htmlText", () => {
  it.each([
    ["our fix: adjacent blocks are not welded (#42348)", "<h1>A</h1><p>B</p>", "A\nB"],
    ["whitespace between blocks in the source is kept as Dify keeps it", "<h1>A</h1>\n\n<p>B</p>", "A\n\nB"],
    ["a space between blocks is enough: nothing is added", "<p>A</p> <p>B</p>", "A B"],
    ["inline elements weld, as in the browser", "<p><b>bo</b><i>ld</i></p>", "bold"],
    [
      "table cells are apart by a tab, rows by a newline",
      "<table><tr><th>Name</th><th>Age</th></tr><tr><td>Ann</td><td>30</td></tr></table>",
      "Name\tAge\nAnn\t30",
    ],
    ["a line break is a newline", "one<br>two<br/>three", "one\ntwo\nthree"],
    ["the title is included", "<html><head><title>T</title></head><body><p>x</p></body></html>", "T\nx"],
    [
      "script, style, template and comments are not",
      "<style>p{}</style><script>var a = '<p>';</script><template><p>t</p></template><!-- c --><p>kept</p>",
      "kept",
    ],
    ["entities are decoded, &nbsp; is U+00A0", "<p>a&nbsp;b &amp; &lt;c&gt; &#233;</p>", "a\u00a0b & <c> é"],
    ["source whitespace inside a block is kept", "<p>a   b\n  c</p>", "a   b\n  c"],
    ["the whole text is stripped", "\n  <div>  x  </div>\n", "x"],
    ["non-ASCII text passes through", "<h2>标题</h2><p>Crème brûlée 😀</p>", "标题\nCrème brûlée 😀"],
    ["an empty document is empty text", "<html><body></body></html>", ""],
  ])("%s", (_behaviour, html, text) => {
    expect(htmlText(html)).toBe(text);
  });
});

describe("declaredHtmlEncoding", () => {
  it.each([
    ['<meta charset="Shift_JIS">', "Shift_JIS"],
    ['<meta http-equiv="Content-Type" content="text/html; charset=windows-1252">', "windows-1252"],
    ["<p>no declaration</p>", undefined],
  ])("reads %j as %j", (head, encoding) => {
    expect(declaredHtmlEncoding(Buffer.from(head))).toBe(encoding);
  });
});
