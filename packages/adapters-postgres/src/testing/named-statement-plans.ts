import pg from "pg";

/** A named statement as a store sent it: its text and one call's parameters. */
export interface SentStatement {
  name: string;
  text: string;
  values: unknown[];
}

/** The named statements this process sends while `work` runs (the last call of each name). */
export async function namedStatementsOf(work: () => Promise<unknown>): Promise<SentStatement[]> {
  const sent = new Map<string, SentStatement>();
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, config: unknown, ...rest: unknown[]) {
    const statement = config as Partial<SentStatement> | undefined;
    if (statement?.name && statement.text)
      sent.set(statement.name, {
        name: statement.name,
        text: statement.text,
        values: statement.values ?? [],
      });
    return (query as (...args: unknown[]) => unknown).call(this, config, ...rest);
  } as typeof query;
  try {
    await work();
  } finally {
    pg.Client.prototype.query = query;
  }
  return [...sent.values()];
}

/**
 * Whether the server keeps plan counts for named statements (`pg_prepared_statements`, PostgreSQL
 * 14 on): where it does not, `plannedOnEveryCall` cannot tell.
 */
export async function countsPlans(client: pg.Client): Promise<boolean> {
  const { rows } = await client.query("show server_version_num");
  return Number(rows[0].server_version_num) >= 140000;
}

/**
 * The texts of `statements` that PostgreSQL plans on every call. Each is called eight times on
 * `client`, as often as a busy server calls it: PostgreSQL plans a named statement's first five
 * calls with their parameters, then keeps a plan for any parameters (generic) unless that plan
 * looks dearer than the ones made so far, and then plans every call again. A call that fails (a
 * write replayed meets what it wrote) has been planned all the same.
 */
export async function plannedOnEveryCall(
  client: pg.Client,
  statements: readonly SentStatement[],
): Promise<string[]> {
  for (const statement of statements) {
    for (let call = 0; call < 8; call += 1) await client.query(statement).catch(() => undefined);
  }
  const { rows } = await client.query<{ name: string; generic_plans: string }>(
    "select name, generic_plans from pg_prepared_statements",
  );
  const planned = new Map(rows.map((row) => [row.name, Number(row.generic_plans)]));
  return statements
    .filter((statement) => (planned.get(statement.name) ?? 0) === 0)
    .map((statement) => statement.text);
}
