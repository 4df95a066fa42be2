/** The kinds of model Dify's model list names. */
export const MODEL_TYPES = ["llm", "text-embedding", "rerank", "speech2text", "moderation", "tts"] as const;
export type ModelType = (typeof MODEL_TYPES)[number];

export const isModelType = (value: string): value is ModelType =>
  (MODEL_TYPES as readonly string[]).includes(value);
