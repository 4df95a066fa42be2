/**
 * A batch id as Dify makes one: the time as `YYYYMMDDHHMMSS` (UTC here; Dify's server local time,
 * UTC in its images) followed by a number from 100000 to 999999: 20 digits.
 */
export function batchId(unixSeconds: number, randomSixDigits: number): string {
  const time = new Date(unixSeconds * 1000).toISOString().replace(/\D/g, "").slice(0, 14);
  return `${time}${randomSixDigits}`;
}

/** The six random digits of a batch, from any 32-bit number (a fresh id's): 100000 to 999999. */
export const sixDigitsOf = (random32: number): number => 100_000 + (Math.abs(random32) % 900_000);

/** What a name longer than 200 code points becomes as the upload's name: its first 200 (Dify's `[:200]`). */
export const uploadNameOf = (name: string): string => [...name].slice(0, 200).join("");
