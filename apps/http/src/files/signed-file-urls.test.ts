import { createHmac } from "node:crypto";
import { InMemorySecretRepository } from "@service-api/ports/testing";
import { describe, expect, it } from "vitest";
import { SignedFileUrls } from "./signed-file-urls.js";

const FILE = "0b6f4b1a-3c7e-4f1e-9c55-2b1d1f0e9a11";

function signer(over: { secretKey?: string; now?: () => number; secrets?: InMemorySecretRepository } = {}) {
  let now = 1_700_000_000;
  const clock = { nowSeconds: over.now ?? (() => now), nowMilliseconds: () => now * 1000 };
  const urls = new SignedFileUrls({
    secretKey: over.secretKey,
    secrets: over.secrets ?? new InMemorySecretRepository(),
    filesUrl: "https://files.example.com/base/",
    timeoutSeconds: 300,
    clock,
  });
  return { urls, advance: (seconds: number) => (now += seconds) };
}

const signatureOf = (url: string) => {
  const query = new URL(url).searchParams;
  return { timestamp: query.get("timestamp")!, nonce: query.get("nonce")!, sign: query.get("sign")! };
};

describe("SignedFileUrls", () => {
  it("signs as Dify does: HMAC-SHA256 of file-preview|id|timestamp|nonce, base64url padded", async () => {
    const { urls } = signer({ secretKey: "dify-secret" });
    const url = await urls.url(FILE, { asAttachment: true });
    expect(url.startsWith(`https://files.example.com/base/files/${FILE}/file-preview?`)).toBe(true);
    const { timestamp, nonce, sign } = signatureOf(url);
    expect(timestamp).toBe("1700000000");
    expect(nonce).toMatch(/^[0-9a-f]{32}$/);
    const expected = createHmac("sha256", "dify-secret")
      .update(`file-preview|${FILE}|${timestamp}|${nonce}`)
      .digest("base64url");
    expect(sign).toBe(`${expected}=`);
    expect(new URL(url).searchParams.get("as_attachment")).toBe("true");
    expect(await urls.verify(FILE, { timestamp, nonce, sign })).toBe(true);
  });

  it("refuses a forged, altered, foreign or expired signature", async () => {
    const { urls, advance } = signer({ secretKey: "k" });
    const signature = signatureOf(await urls.url(FILE));
    expect(await urls.verify(FILE, { ...signature, sign: `A${signature.sign.slice(1)}` })).toBe(false);
    expect(await urls.verify(FILE, { ...signature, nonce: "0".repeat(32) })).toBe(false);
    expect(
      await urls.verify(FILE, { ...signature, timestamp: String(Number(signature.timestamp) + 1) }),
    ).toBe(false);
    expect(await urls.verify("other", signature)).toBe(false);
    expect(await urls.verify(FILE, { ...signature, sign: undefined })).toBe(false);
    expect(await urls.verify(FILE, { ...signature, timestamp: "1e9" })).toBe(false);
    const other = signer({ secretKey: "another key" }).urls;
    expect(await other.verify(FILE, signature)).toBe(false);
    advance(300);
    expect(await urls.verify(FILE, signature)).toBe(true);
    advance(1);
    expect(await urls.verify(FILE, signature)).toBe(false);
  });

  it("without SECRET_KEY, signs with the key the store keeps, so two instances agree", async () => {
    const secrets = new InMemorySecretRepository();
    const first = signer({ secrets }).urls;
    const second = signer({ secrets }).urls;
    const signature = signatureOf(await first.url(FILE));
    expect(await second.verify(FILE, signature)).toBe(true);
    expect(await signer().urls.verify(FILE, signature)).toBe(false);
  });
});
