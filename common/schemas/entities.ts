import { z } from 'zod';
import { BULK_MAX_ITEMS, DEFAULT_ENTITY_CATEGORY } from '../constants';
import { pageNumberSchema, pageSizeSchema } from './paging';
import { baseVersionField, itemVersionSchema } from './itemVersion';
import { multiLineText, nameText, singleLineText } from './text';
import { versionIdSchema } from './versions';
import { FIELD_TYPES, anyFieldValueSchema, fieldValueSchema } from './fieldValues';
import { entityPoliciesSchema } from './policies';

/** Entity and field names: letters, digits and underscore only (spec section 5). */
export const IDENTIFIER_PATTERN = /^[A-Za-z0-9_]+$/;

/** What the add form keeps of a typed name: letters, digits and underscore. */
export const stripToIdentifier = (value: string) => value.replace(/[^A-Za-z0-9_]/g, '');

const identifierSchema = nameText({ error: 'is required' })
  .min(1, 'is required')
  .max(64, 'must be at most 64 characters')
  .regex(IDENTIFIER_PATTERN, 'may only hold letters, digits and _');

/**
 * A field as stored and answered: only what differs from a plain text field is written, so
 * a definition of text fields reads as the spec has it (`{ name, label }`).
 */
export const entityFieldSchema = z.object({
  name: z.string(),
  label: z.string(),
  type: z.enum(FIELD_TYPES).optional(),
  required: z.boolean().optional(),
  unique: z.boolean().optional(),
  default: anyFieldValueSchema.optional(),
  /** A select's choices. */
  options: z.array(z.string()).optional(),
  /** A relation's entity (its name). */
  target: z.string().optional(),
});
export type EntityField = z.infer<typeof entityFieldSchema>;

/** A field of `POST /api/entities` and `PUT /api/entities/{id}`. */
export const entityFieldInputSchema = z.object({
  name: identifierSchema,
  label: singleLineText().trim().max(100, 'must be at most 100 characters').default(''),
  type: z.enum(FIELD_TYPES, { error: `must be one of ${FIELD_TYPES.join(', ')}` }).default('text'),
  required: z.boolean().default(false),
  unique: z.boolean().default(false),
  default: anyFieldValueSchema.nullable().optional(),
  // A list, or as typed in the form: separated by commas.
  options: z.preprocess(
    (value) =>
      typeof value === 'string'
        ? value
            .split(',')
            .map((option) => option.trim())
            .filter(Boolean)
        : value,
    z
      .array(
        singleLineText()
          .trim()
          .min(1, 'must not be empty')
          .max(100, 'must be at most 100 characters'),
      )
      .max(200, 'must be at most 200 options')
      .optional(),
  ),
  target: identifierSchema.optional(),
});

/** An entity definition (spec section 3). */
export const entitySchema = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string(),
  category: z.string(),
  fields: z.array(entityFieldSchema),
  /** The field that names a record (in relations); absent: the first field. */
  displayField: z.string().optional(),
  /** Who may read and change which records and fields, per role; absent: no policy. */
  policies: entityPoliciesSchema.optional(),
  _version: itemVersionSchema,
});

type FieldInput = z.infer<typeof entityFieldInputSchema>;

/** What is wrong with a field's type settings, as [path under the field, message]. */
function fieldProblems(field: FieldInput): [string, string][] {
  const problems: [string, string][] = [];
  if (field.type === 'select') {
    const options = field.options ?? [];
    if (options.length === 0) problems.push(['options', 'a select needs at least one option']);
    if (new Set(options).size !== options.length) problems.push(['options', 'must be unique']);
  } else if (field.options !== undefined) {
    problems.push(['options', 'only a select has options']);
  }
  if (field.type === 'relation' && !field.target) {
    problems.push(['target', 'a relation needs the entity it points at']);
  } else if (field.type !== 'relation' && field.target !== undefined) {
    problems.push(['target', 'only a relation has a target']);
  }
  if (field.unique && (field.type === 'boolean' || field.type === 'longText')) {
    problems.push(['unique', `a ${field.type} field cannot be unique`]);
  }
  if (field.default !== undefined && field.default !== null) {
    if (field.type === 'relation' || field.unique) {
      problems.push(['default', 'a relation or unique field has no default']);
    } else {
      const parsed = fieldValueSchema(field).safeParse(field.default);
      if (!parsed.success) problems.push(['default', parsed.error.issues[0]!.message]);
    }
  }
  return problems;
}

/** A field as stored: what differs from a plain optional text field, and nothing else. */
function storedField(field: FieldInput): EntityField {
  const stored: EntityField = { name: field.name, label: field.label || field.name };
  if (field.type !== 'text') stored.type = field.type;
  if (field.required) stored.required = true;
  if (field.unique) stored.unique = true;
  if (field.default !== undefined && field.default !== null) {
    stored.default = fieldValueSchema(field).parse(field.default) ?? undefined;
  }
  if (field.type === 'select') stored.options = field.options;
  if (field.type === 'relation') stored.target = field.target;
  return stored;
}

/** `POST /api/entities` and `PUT /api/entities/{id}`. */
export const entityInputSchema = z
  .object({
    name: identifierSchema,
    description: multiLineText().trim().max(1000, 'must be at most 1000 characters').default(''),
    category: z.preprocess(
      (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
      singleLineText()
        .trim()
        .max(64, 'must be at most 64 characters')
        .default(DEFAULT_ENTITY_CATEGORY),
    ),
    fields: z.array(entityFieldInputSchema).min(1, 'must have at least one field').max(100),
    displayField: identifierSchema.optional(),
    ...baseVersionField,
  })
  .superRefine(({ fields, displayField }, ctx) => {
    const seen = new Set<string>();
    fields.forEach((field, index) => {
      if (seen.has(field.name)) {
        ctx.addIssue({
          code: 'custom',
          path: ['fields', index, 'name'],
          message: 'must be unique',
        });
      }
      seen.add(field.name);
      for (const [key, message] of fieldProblems(field)) {
        ctx.addIssue({ code: 'custom', path: ['fields', index, key], message });
      }
    });
    if (displayField !== undefined && !seen.has(displayField)) {
      ctx.addIssue({
        code: 'custom',
        path: ['displayField'],
        message: 'must be one of the fields',
      });
    }
  })
  // A field with no label is shown by its name; the first field names records by default.
  .transform(({ displayField, ...entity }) => ({
    ...entity,
    fields: entity.fields.map(storedField),
    ...(displayField && displayField !== entity.fields[0]?.name ? { displayField } : {}),
  }));

/**
 * What a definition change would do to the records (`PUT /api/entities/{id}?dryRun=true`,
 * and a refused change's 409 DEFINITION_CONFLICT): how many records there are, how many
 * have a value converted to a new type, and each value that could not follow (the first
 * 100 listed, `failed` counting all).
 */
export const definitionReportSchema = z.object({
  records: z.number().int(),
  converted: z.number().int(),
  failed: z.number().int(),
  failures: z.array(
    z.object({
      _id: z.string(),
      field: z.string(),
      /** The value as text, as it is now (null: empty). */
      value: z.string().nullable(),
      message: z.string(),
    }),
  ),
});
export type DefinitionReport = z.infer<typeof definitionReportSchema>;

/** `PUT /api/entities/{id}?dryRun=true`: report what the change would do, and change nothing. */
export const entityChangeQuerySchema = z.object({
  dryRun: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .optional()
    .transform((value) => value === 'true'),
});

/** An entity record (spec section 3). */
export const entityRecordSchema = z.object({
  _id: z.string(),
  entity_name: z.string(),
  fields: z.record(z.string(), anyFieldValueSchema),
  /** In a page: each relation's record by its display value (absent when it has none). */
  _display: z.record(z.string(), anyFieldValueSchema).optional(),
  /** The id of the user who added it (absent for records added before this was kept). */
  _createdBy: z.string().optional(),
  _version: itemVersionSchema,
});

/** The comparisons a records page may filter by (`filter[field][op]=value`). */
export const RECORD_FILTER_OPS = [
  'eq',
  'ne',
  'contains',
  'lt',
  'lte',
  'gt',
  'gte',
  'in',
  'empty',
] as const;
export type RecordFilterOp = (typeof RECORD_FILTER_OPS)[number];

/** A records page's filter parameter, `filter[field][op]`: matches its field and its op. */
export const RECORD_FILTER_KEY = /^filter\[([^\]]+)\]\[([^\]]+)\]$/;

/**
 * `GET /api/entity-records/{entityName}` with paging: page, perPage, `sort=field:asc,other:desc`,
 * `q` (every word in one of the text fields), and `filter[field][op]=value` parameters, which
 * the server checks against the definition. Without any of them the spec's plain array.
 */
export const recordPageQuerySchema = z
  .object({
    page: pageNumberSchema.max(1_000_000, 'must be at most 1000000').optional(),
    /** 1 to 100; RECORD_PAGE_SIZE when absent. */
    perPage: pageSizeSchema.optional(),
    sort: singleLineText().max(1000, 'must be at most 1000 characters').optional(),
    q: singleLineText().max(200, 'must be at most 200 characters').optional(),
  })
  .catchall(singleLineText().max(1000, 'must be at most 1000 characters'));
export type RecordPageQuery = z.infer<typeof recordPageQuerySchema>;

/** A page of records: `total` exact, or (past RECORD_EXACT_TOTAL) an estimate when flagged. */
export const recordPageSchema = z.object({
  records: z.array(entityRecordSchema),
  total: z.number().int(),
  totalIsEstimate: z.boolean(),
});
export type RecordPage = z.infer<typeof recordPageSchema>;

/**
 * Record values by field name, as sent: the server checks them against the definition
 * (`recordValuesSchema`), which names which keys are fields and what each value must be.
 */
const recordFieldsSchema = z.record(nameText(), anyFieldValueSchema.nullable());

/** `POST /api/entity-records/{entityName}`: the client may choose the id. */
export const createEntityRecordSchema = z.object({
  _id: z.uuid('must be a record id').optional(),
  entity_name: nameText().optional(),
  fields: recordFieldsSchema,
});

/** `PUT /api/entity-records/{entityName}/{id}`. */
export const updateEntityRecordSchema = z.object({
  fields: recordFieldsSchema,
  ...baseVersionField,
});

/** `GET /api/entities/{idOrName}`: an entity's id or its name. */
export const entityIdOrNameParamsSchema = z.object({
  idOrName: nameText().min(1, 'is required').max(100, 'must be at most 100 characters'),
});

/** The records of one entity: `/api/entity-records/{entityName}`. */
/**
 * Which records a bulk action changes: the ones chosen (`ids`), or every record the list's
 * search and filter match (`matching`: its `q` and `filter[field][op]` parameters, as the
 * list takes them), at most BULK_MAX_ITEMS either way.
 */
export const recordSelectionSchema = z
  .object({
    ids: z
      .array(z.uuid('must be record ids'))
      .min(1, 'must name at least one record')
      .max(BULK_MAX_ITEMS, `must name at most ${BULK_MAX_ITEMS} records`)
      .optional(),
    matching: z
      .record(z.string().max(200), singleLineText().max(1000, 'must be at most 1000 characters'))
      .optional(),
  })
  .refine((selection) => (selection.ids === undefined) !== (selection.matching === undefined), {
    message: 'must have either ids or matching',
  });
export type RecordSelection = z.infer<typeof recordSelectionSchema>;

/** `POST /api/entity-records/{entityName}/bulk-update`: the same values set on every record chosen. */
export const bulkUpdateRecordsSchema = z.object({
  selection: recordSelectionSchema,
  fields: recordFieldsSchema,
});

/** `POST /api/entity-records/{entityName}/bulk-restore`: deleted records brought back (an Undo). */
export const bulkRestoreRecordsSchema = z.object({
  ids: z.array(z.uuid('must be record ids')).min(1).max(BULK_MAX_ITEMS),
});

/** What a bulk action answers: the records it changed, by id. */
export const bulkResultSchema = z.object({ ids: z.array(z.string()) });
export type BulkResult = z.infer<typeof bulkResultSchema>;

export const entityRecordsParamsSchema = z.object({
  entityName: nameText().min(1, 'is required').max(64, 'must be at most 64 characters'),
});

/** One record: `/api/entity-records/{entityName}/{id}`. */
export const entityRecordParamsSchema = entityRecordsParamsSchema.extend({
  id: z.uuid('must be a record id'),
});

/** `POST /api/entity-records/{entityName}/{id}/versions/{versionId}/restore`. */
export const entityRecordVersionParamsSchema = entityRecordParamsSchema.extend({
  versionId: versionIdSchema,
});

export type Entity = z.infer<typeof entitySchema>;
export type EntityInput = z.input<typeof entityInputSchema>;
export type EntityRecord = z.infer<typeof entityRecordSchema>;
