import { UnreadableFile } from "./unreadable-file.js";

/**
 * Counts the characters and rows a reader produces, and stops the reading as soon as a limit is
 * passed, so a file cannot grow the output past the limits before it is refused.
 */
export class TextBudget {
  private characters = 0;
  private rows = 0;

  constructor(
    private readonly maxTextCharacters: number,
    private readonly maxRows: number,
  ) {}

  /** Adds a unit's text; throws `UnreadableFile` past the character limit. */
  spend(text: string): string {
    this.characters += text.length;
    if (this.characters > this.maxTextCharacters) {
      throw new UnreadableFile(
        `The file's text is too long (over ${this.maxTextCharacters.toLocaleString("en-US")} characters).`,
      );
    }
    return text;
  }

  /** Counts one data row of a table; throws `UnreadableFile` past the row limit. */
  countRow(): void {
    this.rows += 1;
    if (this.rows > this.maxRows) {
      throw new UnreadableFile(`The file has too many rows (over ${this.maxRows.toLocaleString("en-US")}).`);
    }
  }
}
