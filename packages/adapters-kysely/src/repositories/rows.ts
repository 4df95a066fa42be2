import type { ProcessRule } from "@service-api/domain";
import type { Flag } from "../schema.js";

/** Flags are written as 0/1, which SQLite's integers and PostgreSQL's booleans both take. */
export const toFlag = (value: boolean): number => (value ? 1 : 0);
/** SQLite reads a flag back as 0/1, PostgreSQL as a boolean. */
export const fromFlag = (value: Flag): boolean => value === true || value === 1;

export const processRuleColumns = (rule: ProcessRule) => ({
  process_rule_id: rule.id,
  process_rule_mode: rule.mode,
  process_rule_rules: JSON.stringify(rule.rules),
});

export const processRuleFromColumns = (id: string, mode: string, rules: string): ProcessRule => ({
  id,
  mode,
  rules: JSON.parse(rules) as Record<string, unknown>,
});

/** `ON CONFLICT DO UPDATE SET` every column but the key: an upsert that never deletes (so no cascades). */
export function updateAllBut<Row extends object>(row: Row, ...keys: (keyof Row)[]) {
  const columns = Object.keys(row).filter((column) => !keys.includes(column as keyof Row));
  // biome-ignore lint/suspicious/noExplicitAny: kysely cannot type a column list built at run time.
  return (eb: any) => Object.fromEntries(columns.map((column) => [column, eb.ref(`excluded.${column}`)]));
}

/**
 * A JSON array a statement read (`SqlFeatures.jsonArrayFrom`), parsed or as text as the driver gave
 * it; none when the statement did not read it.
 */
export const jsonRows = <Row>(value: unknown) =>
  (value === undefined ? [] : typeof value === "string" ? JSON.parse(value) : value) as Row[];
