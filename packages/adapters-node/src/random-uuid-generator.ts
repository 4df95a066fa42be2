import { createHash, randomUUID } from "node:crypto";
import type { IdGenerator } from "@service-api/ports";

/** Namespace of the derived ids (RFC 9562 §5.5), fixed forever: changing it would change every derived id. */
const NAMESPACE = Buffer.from("7c1c5d5e0b8a4f6b9a3e2d4c6b8a0f1e", "hex");

export class RandomUuidGenerator implements IdGenerator {
  next(): string {
    return randomUUID();
  }

  /** A name-based UUID (version 5) of the parts, joined by NUL. */
  derive(...parts: string[]): string {
    const digest = createHash("sha1").update(NAMESPACE).update(parts.join("\u0000"), "utf8").digest();
    digest[6] = (digest[6]! & 0x0f) | 0x50;
    digest[8] = (digest[8]! & 0x3f) | 0x80;
    const hex = digest.subarray(0, 16).toString("hex");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
}
