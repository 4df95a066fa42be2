import type { StoreMonitor } from "@service-api/ports";
import { type Kysely, sql } from "kysely";

/** How an instance folds fields' counter rows back into their fields. */
export interface FieldCountFoldingOptions {
  /** Between two folds, in ms; a fifth of it at random is added, so instances spread out. */
  intervalMs: number;
  /** Fields one fold takes at most. */
  fields: number;
}

export const DEFAULT_FIELD_COUNT_FOLDING: FieldCountFoldingOptions = { intervalMs: 10_000, fields: 500 };

/** A day: the longest interval, well within a timer's range (past 2³¹ − 1 ms Node fires at once). */
export const MAX_FIELD_COUNT_FOLD_INTERVAL_MS = 86_400_000;

/**
 * The options, checked: an interval from 1 ms to a day, a whole number of fields from 1. Not a
 * number, or past a timer's range, an interval would make Node's timer fire every millisecond.
 */
export function checkedFolding(options: FieldCountFoldingOptions): FieldCountFoldingOptions {
  const { intervalMs, fields } = options;
  if (!(Number.isFinite(intervalMs) && intervalMs > 0 && intervalMs <= MAX_FIELD_COUNT_FOLD_INTERVAL_MS))
    throw new RangeError(`Fold interval must be above 0 and at most a day, in ms: ${intervalMs}`);
  if (!(Number.isSafeInteger(fields) && fields > 0))
    throw new RangeError(`Fields per fold must be a whole number above 0: ${fields}`);
  return options;
}

/**
 * Moves fields' counter rows (migration 0009) into the fields' own `document_count`, in one
 * statement: of up to `fields` fields that have rows, the first by id after `after`. Returns how
 * many it folded and the last id it looked at, or undefined when it looked at fewer than `fields`
 * (the next fold starts again from the first). The rows spare concurrent value writes a queue
 * on one row, but a read of a field's count sums them all (16 a field once written enough); folded,
 * it reads none until the next write. The trigger already counts a removal in the field's row when
 * its slot has no row, and recreates a slot's row on the next value, so nothing else changes.
 *
 * It never waits for a lock: it takes the fields and then their rows with SKIP LOCKED (a row a
 * writer holds stays for the next fold), so it cannot be part of a deadlock, and a writer waits for
 * it at most this one statement. The fields are locked first, as FOR NO KEY UPDATE, which value
 * inserts (their foreign key's KEY SHARE) do not wait for.
 */
export async function foldFieldCounts<Schema>(
  db: Kysely<Schema>,
  fields: number,
  after = "",
): Promise<{ folded: number; last: string | undefined }> {
  const { rows } = await sql<{ folded: number | string; looked: number | string; last: string | null }>`
    with candidates as materialized (
      select distinct field_id from metadata_field_counts
       where field_id > ${after} order by field_id limit ${fields}),
    locked_fields as materialized (
      select id from metadata_fields
       where id in (select field_id from candidates)
         for no key update skip locked),
    taken as materialized (
      select field_id, slot from metadata_field_counts
       where field_id in (select id from locked_fields)
         for update skip locked),
    folded as (
      delete from metadata_field_counts as counts using taken
       where counts.field_id = taken.field_id and counts.slot = taken.slot
       returning counts.field_id, counts.count),
    summed as (select field_id, sum(count) as total from folded group by field_id),
    updated as (
      update metadata_fields set document_count = document_count + summed.total
        from summed where metadata_fields.id = summed.field_id
      returning metadata_fields.id)
    select (select count(*) from updated) as folded, (select count(*) from candidates) as looked,
      (select max(field_id) from candidates) as last`.execute(db);
  const [row] = rows;
  const full = Number(row?.looked ?? 0) >= fields;
  return { folded: Number(row?.folded ?? 0), last: full ? (row?.last ?? undefined) : undefined };
}

/**
 * Folds every `intervalMs` (with jitter) until stopped; never two folds at once. Each fold goes on
 * from the field where the last stopped, so fields with rows beyond one batch are reached too. A
 * failed fold is told to the monitor and tried again at the next turn: counts stay right meanwhile,
 * reads slower.
 */
export class FieldCountFolder<Schema> {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #stopped = false;
  #after = "";

  constructor(
    private readonly db: Kysely<Schema>,
    private readonly options: FieldCountFoldingOptions,
    private readonly monitor?: StoreMonitor,
  ) {
    checkedFolding(options);
  }

  start(): void {
    this.#schedule();
  }

  /** Stops the timer and waits for a fold under way, so the pool can close after. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  #schedule(): void {
    if (this.#stopped) return;
    const delay = this.options.intervalMs * (1 + Math.random() / 5);
    this.#timer = setTimeout(() => {
      this.#running = this.#fold().finally(() => {
        this.#running = undefined;
        this.#schedule();
      });
    }, delay);
    this.#timer.unref();
  }

  async #fold(): Promise<void> {
    try {
      this.#after = (await foldFieldCounts(this.db, this.options.fields, this.#after)).last ?? "";
    } catch (error) {
      try {
        this.monitor?.backgroundTaskFailed?.("fold field counts", error as Error);
      } catch {
        // A monitor must not throw; if it does, the next turn still comes.
      }
    }
  }
}
