import pg from "pg";

const INT8 = 20;

/**
 * How pg reads column values: as it does by default, except bigint (int8), which it would give as
 * a string. Our bigints are Unix seconds and counts, far below 2^53, so numbers are exact.
 */
export const postgresTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format as "text")) as pg.CustomTypesConfig["getTypeParser"],
};
