import { postgresPass } from "../../vitest.postgres.ts";
import shared from "../../vitest.shared.ts";

export default postgresPass(shared);
