import { TAG_NAME_MAX_LENGTH } from "@service-api/domain";
import { z } from "zod";
import { pathId } from "../../http/params.js";

const ids = z.array(z.string().transform((value) => pathId(value)));

export const knowledgeTag = z.object({
  id: z.string(),
  name: z.string(),
  type: z.literal("knowledge"),
  binding_count: z
    .string()
    .meta({ description: 'Datasets bound to the tag, as a JSON string (`"0"`), as Dify sends it.' }),
});

export const tagName = z.string().meta({
  description: `1 to ${TAG_NAME_MAX_LENGTH} characters, not blank; unique among the workspace's knowledge tags.`,
});

export const createTagBody = z.object({ name: tagName });
export const renameTagBody = z.object({
  tag_id: z.string().transform((value) => pathId(value)),
  name: tagName,
});
export const TAG_ID_REQUIRED = "a tag id is required.";
export const deleteTagBody = z.object({
  tag_id: z.string({ error: TAG_ID_REQUIRED }).transform((value) => pathId(value)),
});
export const deleteTagQuery = z.object({
  tag_id: z.string().optional().meta({ description: "The tag; when absent, the body's `tag_id`." }),
});

const TAG_IDS_REQUIRED = "Tag IDs is required.";

export const bindingBody = z.object({
  // Missing or empty: the unbinding's words (and Dify's), not zod's.
  tag_ids: z
    .array(
      z.string().transform((value) => pathId(value)),
      {
        error: (issue) => (issue.input === undefined ? TAG_IDS_REQUIRED : undefined),
      },
    )
    .min(1, { error: TAG_IDS_REQUIRED })
    .meta({ description: "Knowledge tags of the workspace; other ids are ignored." }),
  target_id: z
    .string()
    .transform((value) => pathId(value))
    .meta({ description: "The dataset." }),
});

/**
 * `tag_ids`, or a legacy single `tag_id` when `tag_ids` is absent, null or empty. As Dify's
 * `TagUnbindingPayload`, either may be null, and an empty `tag_id` stands for none.
 */
export const unbindingBody = z
  .object({
    tag_ids: ids.nullish(),
    tag_id: z
      .string()
      .nullish()
      .meta({ description: "Legacy: one tag, when `tag_ids` is absent, null or empty." }),
    target_id: z
      .string()
      .transform((value) => pathId(value))
      .meta({ description: "The dataset." }),
  })
  .transform((body, context) => {
    const tagIds = body.tag_ids?.length ? body.tag_ids : body.tag_id ? [pathId(body.tag_id)] : [];
    if (tagIds.length === 0) {
      context.addIssue({ code: "custom", path: ["tag_ids"], message: TAG_IDS_REQUIRED });
      return z.NEVER;
    }
    return { tagIds, targetId: body.target_id };
  });

export const datasetTags = z.object({
  data: z.array(z.object({ id: z.string(), name: z.string() })).meta({ description: "By name, then id." }),
  total: z.number().int(),
});
