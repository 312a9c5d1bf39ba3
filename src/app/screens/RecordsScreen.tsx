import { useMemo } from 'react';
import { useParams } from 'react-router-dom';
import { messages } from '@common/messages';
import type { Entity } from '@common/schemas/entities';
import { PermissionGate } from '@/auth/PermissionGate';
import { EntityByName } from '@/features/entities/EntityByName';
import { useListEntitiesQuery } from '@/features/entities/entities.api';
import { RecordsPage } from '@/features/records/RecordsPage';
import { useT } from '@/i18n/useT';

/**
 * `/entities/:entityName`: the entity's definition (entities), then its records (records);
 * the records are asked for only once the entity is known to exist.
 */
export function RecordsScreen() {
  const t = useT();
  const { entityName = '' } = useParams();
  return (
    <PermissionGate verb="GET" path="/api/entities/:idOrName" what={t('entities.reading')}>
      <PermissionGate verb="GET" path="/api/entity-records/:entityName" what={t('records.reading')}>
        <EntityByName
          key={entityName}
          name={entityName}
          errorContext={messages.records.fetchContext}
        >
          {(entity) => <RecordsWithTargets key={entity._id} entity={entity} />}
        </EntityByName>
      </PermissionGate>
    </PermissionGate>
  );
}

/** The records page, with the definitions its relation pickers show records by. */
function RecordsWithTargets({ entity }: { entity: Entity }) {
  const { fields } = entity;
  const hasRelations = fields.some((field) => field.target);
  const { data: entities } = useListEntitiesQuery(undefined, { skip: !hasRelations });
  const targets = useMemo(
    () =>
      (entities ?? []).filter((candidate) =>
        fields.some((field) => field.target === candidate.name),
      ),
    [entities, fields],
  );
  return <RecordsPage entity={entity} targets={targets} />;
}
