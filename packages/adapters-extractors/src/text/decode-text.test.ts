import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { PNG_BYTES } from "../testing/zip.test-support.js";
import { decodeText } from "./decode-text.js";

const JAPANESE =
  "日本語のテキストです。これはシフトJISで書かれたファイルの例です。文字コードを正しく判定できるか確かめます。";
const CHINESE = "这是一个用简体中文写的文件。我们检查编码是否能被正确地识别出来，然后读取全部的内容。";
const FRENCH =
  "Le café de la crème brûlée était très apprécié à Noël, déjà célèbre à l'époque où nous étions élèves.";
const RUSSIAN =
  "Это пример текста на русском языке, записанного в кодировке windows-1251, чтобы проверить распознавание.";

describe("decodeText", () => {
  it.each([
    ["UTF-8 with CJK, accents and emoji", Buffer.from("漢字 café 😀"), "漢字 café 😀"],
    ["Shift_JIS, detected when UTF-8 fails", iconv.encode(JAPANESE, "shift_jis"), JAPANESE],
    ["GB18030, detected when UTF-8 fails", iconv.encode(CHINESE, "gb18030"), CHINESE],
    ["windows-1252, detected when UTF-8 fails", iconv.encode(FRENCH, "windows-1252"), FRENCH],
    ["windows-1251, detected when UTF-8 fails", iconv.encode(RUSSIAN, "windows-1251"), RUSSIAN],
    [
      "UTF-16LE with its BOM, the BOM dropped",
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("ü 漢", "utf16le")]),
      "ü 漢",
    ],
  ])("reads %s", (_behaviour, bytes, text) => {
    expect(decodeText(bytes, { keepUtf8Bom: false })).toBe(text);
  });

  it("keeps a UTF-8 BOM as U+FEFF when asked, as Python's utf-8 codec does", () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("text")]);
    expect(decodeText(bytes, { keepUtf8Bom: true })).toBe("\uFEFFtext");
    expect(decodeText(bytes, { keepUtf8Bom: false })).toBe("text");
  });

  it("tries a declared encoding before detecting one", () => {
    expect(
      decodeText(iconv.encode("é", "windows-1252"), { keepUtf8Bom: false, declaredEncoding: "windows-1252" }),
    ).toBe("é");
  });

  it("refuses binary data, such as a PNG named .txt", () => {
    expect(() => decodeText(PNG_BYTES, { keepUtf8Bom: false })).toThrow(
      "The file is not text: it holds binary data.",
    );
  });
});
