import { VARIABLE_TYPES } from "@service-api/domain";
import { z } from "zod";

export const conversationVariable = z.object({
  id: z.string(),
  name: z.string(),
  value_type: z.enum(VARIABLE_TYPES),
  value: z.string().meta({
    description:
      "Always a string: the text itself for `string` and `secret`, JSON text for every other type.",
  }),
  description: z.string(),
  created_at: z.number().int().meta({ description: "Unix seconds." }),
  updated_at: z.number().int().meta({ description: "Unix seconds." }),
});

export const variableList = z.object({
  limit: z.number().int(),
  has_more: z.boolean(),
  data: z.array(conversationVariable).meta({ description: "Oldest first." }),
});

/**
 * Only the shape is checked here; the use case checks `user` and `value` after the app mode, so
 * both are optional to zod (which would refuse a missing one first) and required in the document.
 */
export const updateVariableBody = z
  .object(
    {
      value: z.unknown().optional().meta({ description: "A JSON value of the variable's type." }),
      user: z
        .unknown()
        .optional()
        .meta({ type: "string", description: "The end user, as the app names it." }),
    },
    { error: "The body must be a JSON object." },
  )
  .meta({ required: ["value", "user"] });
