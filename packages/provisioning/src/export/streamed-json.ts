/**
 * An array whose items are read while it is written: `writeJson` writes each one as it comes, so
 * neither the text nor all the items are in memory at once. It may be the top value or a value of
 * a plain object; anywhere else (inside a plain array, deeper in an object that holds no streamed
 * array itself) `JSON.stringify` would meet it, and it refuses.
 */
export class Streamed<Item> {
  constructor(readonly items: () => AsyncIterable<Item>) {}

  toJSON(): never {
    throw new Error("A streamed array is written by writeJson, not by JSON.stringify.");
  }
}

/** Takes the next piece of text; the writer waits for it before reading on. */
export type WriteText = (text: string) => Promise<void> | void;

/**
 * Writes `value` exactly as `JSON.stringify(value, null, 2)` writes it once its streamed arrays
 * are read. A value holding no streamed array is written whole, its lines indented to its depth
 * (JSON text holds no newline but those between its lines).
 */
export async function writeJson(value: unknown, write: WriteText, indent = ""): Promise<void> {
  if (value instanceof Streamed) return writeArray(value, write, indent);
  if (holdsStreamed(value)) return writeObject(value, write, indent);
  await write(JSON.stringify(value, null, 2).replaceAll("\n", `\n${indent}`));
}

async function writeArray(array: Streamed<unknown>, write: WriteText, indent: string): Promise<void> {
  const inner = `${indent}  `;
  let written = 0;
  for await (const item of array.items()) {
    await write(`${written === 0 ? "[" : ","}\n${inner}`);
    await writeJson(item, write, inner);
    written += 1;
  }
  await write(written === 0 ? "[]" : `\n${indent}]`);
}

async function writeObject(object: object, write: WriteText, indent: string): Promise<void> {
  const inner = `${indent}  `;
  // As JSON.stringify: keys in their order, undefined values left out (this object has one at least).
  const entries = Object.entries(object).filter(([, value]) => value !== undefined);
  for (const [index, [key, value]] of entries.entries()) {
    await write(`${index === 0 ? "{" : ","}\n${inner}${JSON.stringify(key)}: `);
    await writeJson(value, write, inner);
  }
  await write(`\n${indent}}`);
}

/** Whether `value` is a plain object one of whose own values is a streamed array. */
function holdsStreamed(value: unknown): value is object {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  return Object.values(value).some((member) => member instanceof Streamed);
}

/** `value` with every streamed array read into a plain array: what `writeJson` writes, as one value. */
export async function settled(value: unknown): Promise<unknown> {
  if (value instanceof Streamed) {
    const items: unknown[] = [];
    for await (const item of value.items()) items.push(await settled(item));
    return items;
  }
  if (!holdsStreamed(value)) return value;
  // Own properties whatever their keys (`__proto__` too), each settled in turn.
  const entries: [string, unknown][] = [];
  for (const [key, member] of Object.entries(value)) entries.push([key, await settled(member)]);
  return Object.fromEntries(entries);
}
