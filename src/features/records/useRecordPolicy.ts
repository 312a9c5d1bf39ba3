import { useMemo } from 'react';
import type { Entity } from '@common/schemas/entities';
import type { FieldValue } from '@common/schemas/fieldValues';
import { CREATED_BY, meetsWhere } from '@common/schemas/policies';
import { selectCurrentUser } from '@/auth/auth.slice';
import { usePermissions } from '@/auth/useCan';
import { useAppSelector } from '@/lib/store';

/** A record as a policy's condition reads it: its values, and who added it. */
interface PolicedRow {
  isNew?: boolean;
  values: Record<string, FieldValue | null>;
  createdBy?: string;
}

/**
 * What the record policies let the signed-in user do on `entity`, as the permissions call
 * tells them (the server holds every write to them; the screens only offer what they allow):
 * the entity with the fields they may read, which rows they may edit or delete, and which
 * fields they may set.
 */
export function useRecordPolicy(entity: Entity) {
  const applied = usePermissions().permissions?.policies?.[entity.name];
  const user = useAppSelector(selectCurrentUser);
  return useMemo(() => {
    const me = { id: user?._id ?? '', username: user?.username ?? '' };
    const valuesOf = (row: PolicedRow) => ({ ...row.values, [CREATED_BY]: row.createdBy ?? null });
    const hidden = new Set(applied?.read?.hidden);
    const readOnly = {
      create: new Set(applied?.create?.readOnly),
      update: new Set(applied?.update?.readOnly),
    };
    return {
      /** The entity as the user may read it: without its hidden fields. */
      visible: hidden.size
        ? { ...entity, fields: entity.fields.filter((field) => !hidden.has(field.name)) }
        : entity,
      mayUpdate: (row: PolicedRow) => meetsWhere(applied?.update?.where, valuesOf(row), me),
      mayDelete: (row: PolicedRow) => meetsWhere(applied?.delete?.where, valuesOf(row), me),
      /** Whether the user may set `field` of `row` (a new row: as they add one). */
      maySet: (row: PolicedRow, field: string) =>
        !(row.isNew ? readOnly.create : readOnly.update).has(field),
    };
  }, [applied, entity, user]);
}

export type RecordPolicy = ReturnType<typeof useRecordPolicy>;
