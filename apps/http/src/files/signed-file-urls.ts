import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Clock, SecretRepository } from "@service-api/ports";

/** The name the database keeps the signing key under, when no `SECRET_KEY` is set. */
export const SIGNING_KEY_NAME = "file_signing_key";

/** What a signed URL's query carries. */
export interface FileSignature {
  timestamp: string;
  nonce: string;
  sign: string;
}

export interface SignedFileUrlSettings {
  /** `SECRET_KEY`; absent, the database's own key, made at first start. */
  secretKey: string | undefined;
  secrets: SecretRepository;
  /** `FILES_URL`: where `/files/{id}/file-preview` is served. */
  filesUrl: string;
  /** `FILES_ACCESS_TIMEOUT`, in seconds. */
  timeoutSeconds: number;
  clock: Clock;
}

/**
 * Signed URLs of uploaded files, as Dify signs them (`file_helpers.get_signed_file_url`): HMAC-SHA256
 * over `file-preview|{file_id}|{timestamp}|{nonce}`, base64url with padding, valid for
 * `FILES_ACCESS_TIMEOUT` seconds. The key is `SECRET_KEY`, or one the database holds, so that every
 * instance on it signs alike.
 */
export class SignedFileUrls {
  #key: Promise<Buffer> | undefined;

  constructor(private readonly settings: SignedFileUrlSettings) {}

  /** `{FILES_URL}/files/{id}/file-preview?timestamp&nonce&sign`, with `as_attachment=true` if asked. */
  async url(fileId: string, options: { asAttachment?: boolean } = {}): Promise<string> {
    const timestamp = String(this.settings.clock.nowSeconds());
    const nonce = randomBytes(16).toString("hex");
    const sign = (await this.#sign(fileId, timestamp, nonce)).toString("base64url");
    const query = new URLSearchParams({ timestamp, nonce, sign: padded(sign) });
    if (options.asAttachment) query.set("as_attachment", "true");
    const base = this.settings.filesUrl.replace(/\/+$/, "");
    return `${base}/files/${fileId}/file-preview?${query}`;
  }

  /** Whether the signature is this server's for the file, and has not expired. */
  async verify(fileId: string, signature: Partial<FileSignature>): Promise<boolean> {
    const { timestamp, nonce, sign } = signature;
    if (!timestamp || !nonce || !sign || !/^\d{1,12}$/.test(timestamp)) return false;
    const expected = await this.#sign(fileId, timestamp, nonce);
    const given = Buffer.from(sign.replace(/=+$/, ""), "base64url");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
    const age = this.settings.clock.nowSeconds() - Number(timestamp);
    return age <= this.settings.timeoutSeconds;
  }

  async #sign(fileId: string, timestamp: string, nonce: string): Promise<Buffer> {
    return createHmac("sha256", await this.#signingKey())
      .update(`file-preview|${fileId}|${timestamp}|${nonce}`)
      .digest();
  }

  #signingKey(): Promise<Buffer> {
    const { secretKey, secrets } = this.settings;
    this.#key ??= (
      secretKey === undefined
        ? secrets.ensure(SIGNING_KEY_NAME, randomBytes(32).toString("base64url"))
        : Promise.resolve(secretKey)
    ).then(
      (key) => Buffer.from(key, "utf8"),
      (error: unknown) => {
        this.#key = undefined;
        throw error;
      },
    );
    return this.#key;
  }
}

/** Base64url as Python's `urlsafe_b64encode` writes it: with its `=` padding. */
const padded = (base64: string) => base64.padEnd(Math.ceil(base64.length / 4) * 4, "=");
