import { z } from 'zod';
import { DEFAULT_ENTITY_CATEGORY } from '../constants';
import { baseVersionField, itemVersionSchema } from './itemVersion';
import { multiLineText, nameText, singleLineText } from './text';
import { versionIdSchema } from './versions';

/** Entity and field names: letters, digits and underscore only (spec section 5). */
export const IDENTIFIER_PATTERN = /^[A-Za-z0-9_]+$/;

/** What the add form keeps of a typed name: letters, digits and underscore. */
export const stripToIdentifier = (value: string) => value.replace(/[^A-Za-z0-9_]/g, '');

const identifierSchema = nameText({ error: 'is required' })
  .min(1, 'is required')
  .max(64, 'must be at most 64 characters')
  .regex(IDENTIFIER_PATTERN, 'may only hold letters, digits and _');

export const entityFieldSchema = z.object({
  name: identifierSchema,
  label: singleLineText().trim().max(100, 'must be at most 100 characters').default(''),
});

/** An entity definition (spec section 3). */
export const entitySchema = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string(),
  category: z.string(),
  fields: z.array(z.object({ name: z.string(), label: z.string() })),
  _version: itemVersionSchema,
});

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
    fields: z.array(entityFieldSchema).min(1, 'must have at least one field').max(100),
    ...baseVersionField,
  })
  .superRefine(({ fields }, ctx) => {
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
    });
  })
  // A field with no label is shown by its name.
  .transform((entity) => ({
    ...entity,
    fields: entity.fields.map((field) => ({ name: field.name, label: field.label || field.name })),
  }));

/** An entity record (spec section 3). */
export const entityRecordSchema = z.object({
  _id: z.string(),
  entity_name: z.string(),
  fields: z.record(z.string(), z.string()),
  _version: itemVersionSchema,
});

/** Record values by field name; the keys must be fields of the definition (checked by the server). */
const recordFieldsSchema = z.record(
  nameText(),
  multiLineText().max(10_000, 'must be at most 10000 characters'),
);

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
