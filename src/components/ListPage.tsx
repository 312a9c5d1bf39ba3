import AddIcon from '@mui/icons-material/Add';
import { Box, Button } from '@mui/material';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import type { ApiPathOf } from '@common/apiRoutes';
import { PermissionGate } from '@/auth/PermissionGate';
import { useCan } from '@/auth/useCan';
import { PageHeader } from './PageHeader';

interface ListPageProps {
  title: string;
  /** The list's own route (the routes table's form) and what it gives, for the gate's sentence. */
  read: { path: ApiPathOf<'GET'>; what: string };
  /** The Add button: its label, the page it opens, and the POST route that page calls. */
  add: { label: string; to: string; path: ApiPathOf<'POST'> };
  /** More buttons for the header, after Add. */
  actions?: ReactNode;
  /** The list, told whether the user may add (its empty state offers it only then). */
  children: (mayAdd: boolean) => ReactNode;
}

/**
 * A resource's list page: its title with an Add button for those who may add, and the list
 * for those who may read it (the others are told so by `PermissionGate`).
 */
export function ListPage({ title, read, add, actions, children }: ListPageProps) {
  const mayAdd = useCan('POST', add.path);
  return (
    <Box>
      <PageHeader title={title}>
        {mayAdd && (
          <Button variant="contained" startIcon={<AddIcon />} component={RouterLink} to={add.to}>
            {add.label}
          </Button>
        )}
        {actions}
      </PageHeader>
      <PermissionGate verb="GET" path={read.path} what={read.what}>
        {children(mayAdd)}
      </PermissionGate>
    </Box>
  );
}
