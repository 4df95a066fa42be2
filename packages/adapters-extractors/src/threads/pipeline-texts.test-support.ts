import { AUTOMATIC_RULES } from "@service-api/domain";
import type { ChunkingRule } from "@service-api/ports";

// Thoreau, Walden (1854), public domain: paragraphs of different lengths, a heading, a URL, runs of
// spaces and blank lines for the cleaning rules.
export const WALDEN = [
  "# Economy",
  "When I wrote the following pages, or rather the bulk of them, I lived alone, in the woods, a mile from any neighbor, in a house which I had built myself, on the shore of Walden Pond, in Concord, Massachusetts, and earned my living by the labor of my hands only. I lived there two years and two months. At present I am a sojourner in civilized life again.",
  "I should not obtrude my affairs so much on the notice of my readers if very particular inquiries had not been made by my townsmen concerning my mode of life, which some would call impertinent, though they do not appear to me at all impertinent, but, considering the circumstances, very natural and pertinent.\nSome have asked what I got to eat; if I did not feel lonesome; if I was not afraid; and the like.",
  "-- In most books, the I, or first person, is omitted; in this it will be retained; that, in respect to egotism, is the main difference.   We commonly do not remember that it is, after all, always the first person that is speaking. (Read it at https://www.gutenberg.org/ebooks/205 .)",
  "\n\nI would fain say something, not so much concerning the Chinese and Sandwich Islanders as you who read these pages, who are said to live in New England; something about your condition, especially your outward condition or circumstances in this world, in this town, what it is, whether it is necessary that it be as bad as it is, whether it cannot be improved as well as not.",
  "The mass of men lead lives of quiet desperation. What is called resignation is confirmed desperation.",
].join("\n\n");

export const RULES: Record<"automatic" | "custom" | "hierarchical", ChunkingRule> = {
  automatic: { mode: "automatic", rules: AUTOMATIC_RULES, form: "text_model" },
  custom: {
    mode: "custom",
    rules: {
      pre_processing_rules: [
        { id: "remove_extra_spaces", enabled: true },
        { id: "remove_urls_emails", enabled: true },
      ],
      segmentation: { separator: "\n\n", max_tokens: 180, chunk_overlap: 30 },
    },
    form: "text_model",
  },
  hierarchical: {
    mode: "hierarchical",
    rules: {
      pre_processing_rules: [{ id: "remove_extra_spaces", enabled: true }],
      segmentation: { separator: "\n\n", max_tokens: 500, chunk_overlap: 0 },
      parent_mode: "paragraph",
      subchunk_segmentation: { separator: "\n", max_tokens: 120, chunk_overlap: 0 },
    },
    form: "hierarchical_model",
  },
};

/** About `megabytes` MB of Walden, repeated. */
export function largeText(megabytes: number): string {
  return `${WALDEN}\n\n`.repeat(Math.ceil((megabytes * 1024 * 1024) / (WALDEN.length + 2)));
}
