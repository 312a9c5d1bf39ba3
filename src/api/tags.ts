/**
 * Tags more than one feature names: kept here, since features never import each other,
 * so the one providing a tag and the ones invalidating it cannot drift apart.
 */

/** The tag of one entity's record list (records provide it; entity definition changes invalidate it). */
export const recordListTag = (entityName: string) =>
  ({ type: 'Record', id: `LIST:${entityName}` }) as const;

/** The tag of an entity's deleted records (records provide it; deleting or restoring the entity invalidates it). */
export const deletedRecordsTag = (entityName: string) =>
  ({ type: 'Record', id: `DELETED:${entityName}` }) as const;
