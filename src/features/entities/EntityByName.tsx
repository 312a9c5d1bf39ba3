import { Alert, Box, Button } from '@mui/material';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import type { Entity } from '@common/schemas/entities';
import { errorCode } from '@/api/errors';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { useReportedError } from '@/hooks/useReportedError';
import { useGetEntityQuery } from './entities.api';
import { useT } from '@/i18n/useT';

/** What an unknown entity name shows in the page (the base query has toasted the 404). */
function NoSuchEntity({ name }: { name: string }) {
  const t = useT();
  return (
    <Box>
      <PageHeader title={name} />
      <Alert
        severity="info"
        role="status"
        action={
          <Button color="inherit" size="small" component={RouterLink} to="/entities">
            {t('entities.seeAll')}
          </Button>
        }
      >
        {t('entities.noSuchName', { name })}
      </Alert>
    </Box>
  );
}

interface EntityByNameProps {
  name: string;
  /** The shared handler's context message when the definition cannot be loaded. */
  errorContext: string;
  /** What shows once the definition is loaded. */
  children: (entity: Entity) => ReactNode;
}

/**
 * The definition of the entity named `name`, through the shared loading and error states;
 * an unknown name says so, with a way to the entities. For screens of other features
 * (composed in app/), such as the record grid.
 */
export function EntityByName({ name, errorContext, children }: EntityByNameProps) {
  const t = useT();
  const entityQuery = useGetEntityQuery(name);
  useReportedError(errorContext, entityQuery.error);
  if (errorCode(entityQuery.error) === 'NOT_FOUND') return <NoSuchEntity name={name} />;
  return (
    <QueryState query={entityQuery} what={t('entities.whatOne')}>
      {children}
    </QueryState>
  );
}
