import { useParams } from 'react-router-dom';
import { messages } from '@common/messages';
import { PermissionGate } from '@/auth/PermissionGate';
import { EntityByName } from '@/features/entities/EntityByName';
import { RecordsPage } from '@/features/records/RecordsPage';

/**
 * `/entities/:entityName`: the entity's definition (entities), then its records (records);
 * the records are asked for only once the entity is known to exist.
 */
export function RecordsScreen() {
  const { entityName = '' } = useParams();
  return (
    <PermissionGate verb="GET" path="/api/entities/:idOrName" what="reading the entities">
      <PermissionGate verb="GET" path="/api/entity-records/:entityName" what="reading the records">
        <EntityByName
          key={entityName}
          name={entityName}
          errorContext={messages.records.fetchContext}
        >
          {(entity) => <RecordsPage key={entity._id} entity={entity} />}
        </EntityByName>
      </PermissionGate>
    </PermissionGate>
  );
}
