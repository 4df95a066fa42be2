import type { ApiKeyKind } from "@service-api/domain";
import type { Clock, IdGenerator, TokenGenerator } from "../../runtime.js";

/** A clock that stands still until a test moves it. */
export class ManualClock implements Clock {
  constructor(public now = 1_800_000_000) {}

  nowSeconds(): number {
    return this.now;
  }

  nowMilliseconds(): number {
    return this.now * 1000;
  }

  advance(seconds: number): void {
    this.now += seconds;
  }
}

/** UUIDs in sequence (`…-000000000001`, `…-000000000002`): predictable ids for tests. */
export class SequentialIdGenerator implements IdGenerator {
  #last = 0;

  next(): string {
    this.#last += 1;
    return `00000000-0000-4000-8000-${this.#last.toString(16).padStart(12, "0")}`;
  }

  /** FNV-1a over the parts, spread to 128 bits: stable and well spread, not cryptographic. */
  derive(...parts: string[]): string {
    let hex = "";
    for (let round = 0; hex.length < 32; round++) {
      let hash = 0x811c9dc5 ^ round;
      for (const character of `${round}\u0000${parts.join("\u0000")}`) {
        hash = Math.imul(hash ^ (character.codePointAt(0) ?? 0), 0x01000193) >>> 0;
      }
      hex += hash.toString(16).padStart(8, "0");
    }
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }
}

/** Tokens `app-test…1`, `ds-test…2`, …: predictable keys for tests. */
export class SequentialTokenGenerator implements TokenGenerator {
  #last = 0;

  generate(kind: ApiKeyKind): string {
    this.#last += 1;
    return `${kind === "app" ? "app-" : "ds-"}test${String(this.#last).padStart(36, "0")}`;
  }
}
