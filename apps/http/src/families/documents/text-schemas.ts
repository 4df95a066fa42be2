import { DOC_FORMS } from "@service-api/application";
import { INDEXING_STATUSES, INDEXING_TECHNIQUES } from "@service-api/domain";
import { z } from "zod";
import { retrievalModelInput } from "../datasets/schemas.js";
import { documentListItem } from "./schemas.js";

const processRule = z.unknown().optional().meta({
  type: "object",
  description:
    "`{mode: automatic | custom | hierarchical, rules: {pre_processing_rules, segmentation, parent_mode, subchunk_segmentation}}`; without it the dataset's latest rule, else `automatic`.",
});
const docForm = z
  .enum(DOC_FORMS as [string, ...string[]], { error: "Invalid doc_form." })
  .optional()
  .meta({
    description: "`text_model` (default) or `hierarchical_model`; the dataset's first document fixes it.",
  });
const modelName = z.string().nullable().optional().meta({ description: "Ignored: no model runs here." });

export const createByTextBody = z.object({
  name: z.string().meta({ description: "The document's name (its first 200 characters)." }),
  text: z.string().meta({ description: "The document's text." }),
  process_rule: processRule,
  doc_form: docForm,
  doc_language: z.string().optional().meta({ description: "Stored; default `English`." }),
  indexing_technique: z
    .enum(INDEXING_TECHNIQUES)
    .nullable()
    .optional()
    .meta({ description: "Used when the dataset has none yet (then required); `high_quality` is refused." }),
  retrieval_model: retrievalModelInput.nullable().optional(),
  embedding_model: modelName,
  embedding_model_provider: modelName,
  original_document_id: z
    .string()
    .nullable()
    .optional()
    .meta({ description: "A document of the dataset to update with this text instead." }),
});

export const updateByTextBody = z.object({
  name: z.string().nullable().optional().meta({ description: "Required with `text`." }),
  text: z.string().nullable().optional(),
  process_rule: processRule,
  doc_form: docForm,
  doc_language: z.string().optional(),
  retrieval_model: retrievalModelInput.nullable().optional(),
});

export const documentAndBatch = z.object({
  document: documentListItem,
  batch: z.string().meta({ description: "20 digits: what indexing-status takes." }),
});

const time = z.number().int().nullable().meta({ description: "Unix seconds; null until then." });

export const indexingStatusList = z.object({
  data: z.array(
    z.object({
      id: z.string(),
      indexing_status: z.enum(INDEXING_STATUSES),
      processing_started_at: time,
      parsing_completed_at: time,
      cleaning_completed_at: time,
      splitting_completed_at: time,
      completed_at: time,
      paused_at: time,
      error: z.string().nullable(),
      stopped_at: time,
      completed_segments: z.number().int(),
      total_segments: z.number().int(),
    }),
  ),
});

/** A form's `data`: create-by-text's body less `name` and `text`. */
export const createByFileData = createByTextBody.omit({ name: true, text: true });

/** An update's `data`: update-by-text's body less `name` and `text`. */
export const updateByFileData = updateByTextBody.omit({ name: true, text: true });

const fileField = z
  .string()
  .meta({ format: "binary", description: "The file: one part, its name with an extension read here." });
const dataField = (what: string) =>
  z
    .string()
    .optional()
    .meta({
      description: `A JSON object: ${what}.`,
      example: '{"indexing_technique":"economy","process_rule":{"mode":"automatic"}}',
    });

export const createByFileForm = z.object({
  file: fileField,
  data: dataField("`indexing_technique`, `process_rule`, `doc_form`, `doc_language`, `original_document_id`"),
});

export const updateByFileForm = z.object({
  file: fileField.optional(),
  data: dataField("`process_rule`, `doc_form`, `doc_language`"),
});
