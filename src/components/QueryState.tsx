import { Alert, Box, Button, LinearProgress, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { messages } from '@common/messages';
import { isRequestCanceled } from '@/api/errors';

/** The parts of an RTK Query hook's result that QueryState reads. */
export interface QueryLike<T> {
  data?: T;
  error?: unknown;
  isLoading: boolean;
  refetch: () => unknown;
}

export interface QueryStateProps<T> {
  /** The query hook's result, as it comes (`useListRolesQuery()`). */
  query: QueryLike<T>;
  /** What is loaded, plural and lower case, for the sentences: 'roles' → 'Loading roles'. */
  what: string;
  /** Whether the data counts as empty; by default an empty array does. */
  isEmpty?: (data: T) => boolean;
  /** What an empty answer shows: 'No roles yet'. */
  empty?: ReactNode;
  /** A way out of the empty state: 'Add one' → `/role`. Omit it when the user may not add. */
  emptyAction?: { label: string; to: string };
  /** The page's content, given the data. */
  children: (data: T) => ReactNode;
}

const isEmptyArray = (data: unknown) => Array.isArray(data) && data.length === 0;

/**
 * One way for every list and detail page to show loading (an accessible progress bar),
 * failure (an error alert with Retry; the toast and the log were the base query's and the
 * page's part) and emptiness (a sentence, with an optional action), then the content.
 * @example
 * <QueryState query={useListRolesQuery()} what="roles" empty="No roles yet"
 *   emptyAction={{ label: 'Add one', to: '/role' }}>
 *   {(roles) => <RoleList roles={roles} />}
 * </QueryState>
 */
export function QueryState<T>({
  query,
  what,
  isEmpty = isEmptyArray,
  empty,
  emptyAction,
  children,
}: QueryStateProps<T>) {
  const { data, error, isLoading, refetch } = query;
  if (data === undefined) {
    if (error && !isRequestCanceled(error)) {
      return (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void refetch()}>
              {messages.client.retry}
            </Button>
          }
        >
          {messages.client.loadFailed(what)}
        </Alert>
      );
    }
    if (isLoading || error) return <LinearProgress aria-label={messages.client.loading(what)} />;
    return null; // skipped: nothing asked, nothing to show
  }
  if (empty !== undefined && isEmpty(data)) {
    return (
      <Box role="status" sx={{ py: 4, textAlign: 'center' }}>
        <Typography color="text.secondary" gutterBottom>
          {empty}
        </Typography>
        {emptyAction && (
          <Button variant="outlined" component={RouterLink} to={emptyAction.to}>
            {emptyAction.label}
          </Button>
        )}
      </Box>
    );
  }
  return children(data);
}
