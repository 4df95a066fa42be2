/**
 * JSON text of rows of strings, for a list sent as one parameter. Lone surrogates become U+FFFD,
 * as the drivers' UTF-8 encoding makes them in any other parameter (PostgreSQL's JSON parser would
 * refuse them, and SQLite's would read them as other bytes).
 */
export const wellFormedJson = (values: readonly (string | readonly string[])[]): string =>
  JSON.stringify(
    values.map((value) =>
      typeof value === "string" ? value.toWellFormed() : value.map((each) => each.toWellFormed()),
    ),
  );
