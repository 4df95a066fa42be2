/** Words to write texts of, plainly English: what the automatic rule splits and merges. */
const WORDS =
  "the widget ships with a warranty that covers parts and labour for two years after purchase while batteries wear out first and are replaced at cost by any service centre in the region".split(
    " ",
  );

/**
 * A text of about `bytes` bytes: paragraphs of 40 to 80 words, sentences of 8 to 16, separated
 * by blank lines, the same for the same seed (a linear congruential sequence).
 */
export function textOf(bytes: number, seed = 1): string {
  let state = seed;
  const next = (limit: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state % limit;
  };
  const paragraphs: string[] = [];
  let length = 0;
  while (length < bytes) {
    const sentences: string[] = [];
    for (let words = 40 + next(40); words > 0; ) {
      const count = Math.min(words, 8 + next(8));
      const sentence = Array.from({ length: count }, () => WORDS[next(WORDS.length)]!).join(" ");
      sentences.push(`${sentence[0]!.toUpperCase()}${sentence.slice(1)}.`);
      words -= count;
    }
    const paragraph = sentences.join(" ");
    paragraphs.push(paragraph);
    length += paragraph.length + 2;
  }
  return paragraphs.join("\n\n").slice(0, bytes);
}
