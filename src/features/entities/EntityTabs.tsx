import { Tab, Tabs } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import type { Entity } from '@common/schemas/entities';
import { useCan } from '@/auth/useCan';
import { useT } from '@/i18n/useT';

/**
 * The parts of an entity an admin edits, one page each: its definition and who may see and
 * change which of its records (Access). Shown only to whoever may write its policies.
 */
export function EntityTabs({
  entity,
  current,
}: {
  entity: Entity;
  current: 'definition' | 'access';
}) {
  const t = useT();
  const mayWritePolicies = useCan('PUT', '/api/entities/:id/policies');
  if (!mayWritePolicies) return null;
  return (
    <Tabs
      value={current}
      component="nav"
      aria-label={t('entities.parts', { name: entity.name })}
      variant="scrollable"
      allowScrollButtonsMobile
      sx={{ mb: 2 }}
    >
      <Tab
        value="definition"
        label={t('entities.definition')}
        component={RouterLink}
        to={`/entities/edit/${entity._id}`}
        aria-current={current === 'definition' ? 'page' : undefined}
      />
      <Tab
        value="access"
        label={t('entities.access')}
        component={RouterLink}
        to={`/entities/edit/${entity._id}/access`}
        aria-current={current === 'access' ? 'page' : undefined}
      />
    </Tabs>
  );
}
