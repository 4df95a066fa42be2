import { createHash } from "node:crypto";
import { chunkDocument, prepareDrafts } from "@service-api/domain";
import type { ChunkingRule, FileToExtract, PreparedSegment, TextPipeline } from "@service-api/ports";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * The text pipeline in the test's own thread: a `.txt` as one unit (other extensions refused, a
 * file holding "unreadable" refused as broken), chunked by the domain's chunker. `failNext` makes
 * the next call reject, as a thread that crashed would; `holdNextExtract` keeps the next read
 * waiting until released, as a big file's would.
 */
export class InProcessTextPipeline implements TextPipeline {
  failNext: string | undefined;
  readonly extracted: string[] = [];
  #held: { reached: () => void; released: Promise<void> } | undefined;

  /** The next extract waits, once `reached`, until `release` is called. */
  holdNextExtract(): { reached: Promise<void>; release: () => void } {
    let release!: () => void;
    let reached!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
    this.#held = { reached, released };
    return { reached: reachedPromise, release };
  }

  async extract(file: FileToExtract) {
    const held = this.#held;
    this.#held = undefined;
    if (held) {
      held.reached();
      await held.released;
    }
    this.#failIfAsked();
    const text = new TextDecoder().decode(file.bytes);
    this.extracted.push(text);
    if (file.extension !== "txt")
      return { ok: false as const, reason: `A .${file.extension} file is not read here.` };
    if (text === "unreadable") return { ok: false as const, reason: "The .txt file cannot be read." };
    return { ok: true as const, units: [text.replace(/\r\n?/g, "\n")] };
  }

  async chunk(units: readonly string[], rule: ChunkingRule): Promise<PreparedSegment[]> {
    this.#failIfAsked();
    return prepareDrafts(chunkDocument(units, rule.mode, rule.rules, rule.form), sha256);
  }

  async close(): Promise<void> {}

  #failIfAsked(): void {
    const reason = this.failNext;
    this.failNext = undefined;
    if (reason) throw new Error(reason);
  }
}
