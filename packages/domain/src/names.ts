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
