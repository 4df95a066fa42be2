import { hash } from "node:crypto";
import type { TextHasher } from "@service-api/ports";

/** node:crypto's one-shot SHA-256. */
export class Sha256TextHasher implements TextHasher {
  sha256(text: string): string {
    return hash("sha256", text, "hex");
  }
}
