/**
 * Tags more than one part of the client names (a feature, and the live updates that
 * invalidate what others changed): kept here, since features never import each other, so
 * the one providing a tag and the ones invalidating it cannot drift apart.
 */

/** The tag of one book's versions (the book's own tag is provided by the list). */
export const bookVersionsTag = (id: string) => ({ type: 'Book', id: `${id}/versions` }) as const;
/** The tag of the books deleted and not restored since. */
export const deletedBooksTag = { type: 'Book', id: 'DELETED' } as const;

/** The tag of one definition's versions (the definition's own tag is the list's too). */
export const entityVersionsTag = (id: string) =>
  ({ type: 'Entity', id: `${id}/versions` }) as const;
/** The tag of the definitions deleted and not restored since. */
export const deletedEntitiesTag = { type: 'Entity', id: 'DELETED' } as const;

/** The tag of one record's versions. */
export const recordVersionsTag = (id: string) =>
  ({ type: 'Record', id: `${id}/versions` }) as const;

/** The tag of one entity's record list (records provide it; entity definition changes invalidate it). */
export const recordListTag = (entityName: string) =>
  ({ type: 'Record', id: `LIST:${entityName}` }) as const;

/** The tag of an entity's deleted records (records provide it; deleting or restoring the entity invalidates it). */
export const deletedRecordsTag = (entityName: string) =>
  ({ type: 'Record', id: `DELETED:${entityName}` }) as const;
