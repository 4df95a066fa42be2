import { METADATA_FIELD_TYPES } from "@service-api/domain";
import { z } from "zod";
import { jsonNumber } from "../../api/common-schemas.js";
import { pathId } from "../../http/params.js";

const fieldType = z.enum(METADATA_FIELD_TYPES, { error: "must be string, number or time." });

export const metadataField = z.object({ id: z.string(), type: fieldType, name: z.string() });

export const metadataFieldList = z.object({
  doc_metadata: z
    .array(
      z.object({
        id: z.string().meta({ description: "The field's id; `built-in` for the five built-in fields." }),
        name: z.string(),
        type: fieldType,
        count: z.number().int().meta({ description: "Documents holding a value for it." }),
      }),
    )
    .meta({ description: "Custom fields in creation order, then the five built-ins when shown." }),
  built_in_field_enabled: z.boolean(),
});

export const builtInFields = z.object({
  fields: z.array(z.object({ name: z.string(), type: fieldType })),
});

const name = z.string().meta({ description: "1 to 255 characters, not blank, not a built-in's." });

export const createFieldBody = z.object({
  type: fieldType.meta({ description: "What values the field holds." }),
  name,
});
export const renameFieldBody = z.object({ name });

export const documentMetadataBody = z.object({
  operation_data: z.array(
    z.object({
      document_id: z.string().transform((value) => pathId(value)),
      metadata_list: z.array(
        z.object({
          id: z
            .string()
            .transform((value) => pathId(value))
            .meta({ description: "A custom field of the dataset." }),
          name: z.unknown().optional().meta({ description: "Ignored: the field's stored name counts." }),
          value: z
            .union([z.string(), jsonNumber, z.null()], { error: "must be a string, a number or null." })
            .optional()
            .meta({ description: "Typed by the field; null (or absent) clears it." }),
        }),
      ),
      partial_update: z.boolean().default(false).meta({
        description: "False: these become the document's only values; true: each is set or cleared.",
      }),
    }),
  ),
});
