import { InvalidParamError } from "./errors.js";
import { isStorableText } from "./text.js";

/** Length as the API counts it: Unicode code points (an emoji is one). */
export const codePointLength = (text: string): number => [...text].length;

/** Empty or whitespace only, as `String.prototype.trim` sees whitespace. */
export const isBlank = (text: string): boolean => text.trim() === "";

export const BLANK_NAME = "name: Name must not be blank.";

/** For a name that is not text at all (a direct caller's number, or none). */
export const NAME_NOT_TEXT = "name: Name must be a string.";

/** Why text no store can hold as sent (`isStorableText`) is refused. */
export const UNSTORABLE_TEXT = "must not contain NUL characters or unpaired surrogates.";

/** For a name no store can hold as sent. */
export const UNSTORABLE_NAME = `name: Name ${UNSTORABLE_TEXT}`;

/**
 * The longest name of a workspace, a member or an app: Dify's columns for them (`tenants.name`,
 * `accounts.name`, `apps.name`) are varchar(255).
 */
export const NAME_MAX_LENGTH = 255;

/**
 * Why the name of a new workspace, member or app is refused (not text, blank, over
 * {@link NAME_MAX_LENGTH}, text no store holds), else undefined. `field` names it in the message.
 */
export function nameProblem(name: unknown, field = "name"): string | undefined {
  if (typeof name !== "string") return `${field}: Name must be a string.`;
  if (isBlank(name)) return `${field}: Name must not be blank.`;
  if (codePointLength(name) > NAME_MAX_LENGTH)
    return `${field}: Name must be at most ${NAME_MAX_LENGTH} characters.`;
  if (!isStorableText(name)) return `${field}: Name ${UNSTORABLE_TEXT}`;
  return undefined;
}

/** Throws `invalid_param` for a name {@link nameProblem} refuses. */
export function ensureName(name: unknown, field = "name"): void {
  const problem = nameProblem(name, field);
  if (problem) throw new InvalidParamError(field, problem);
}
