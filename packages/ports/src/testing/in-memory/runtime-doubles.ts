import type { Clock, IdGenerator } from "../../runtime.js";

/** A clock that stands still until a test moves it. */
export class ManualClock implements Clock {
  constructor(public now = 1_800_000_000) {}

  nowSeconds(): number {
    return this.now;
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
}
