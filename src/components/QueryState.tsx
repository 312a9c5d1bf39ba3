import { Alert, Box, Button, LinearProgress, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { errorCode, isRequestCanceled } from '@/api/errors';
import { useT } from '@/i18n/useT';

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
  /**
   * What is loaded, plural and lower case, in the language in effect, for the sentences:
   * 'roles' → 'Loading roles' ('les rôles' → 'Chargement en cours : les rôles').
   */
  what: string;
  /** Whether the data counts as empty; by default an empty array does. */
  isEmpty?: (data: T) => boolean;
  /** What an empty answer shows: 'No roles yet'. */
  empty?: ReactNode;
  /** A way out of the empty state: 'Add one' → `/role`. Omit it when the user may not add. */
  emptyAction?: { label: string; to: string };
  /**
   * What a detail page shows when the server has no such item (a 404 NOT_FOUND, or a 400
   * for an id that is not one), instead of the error and its Retry: 'There is no role with
   * this id.', with a way back.
   */
  notFound?: { message: ReactNode; back: { label: string; to: string } };
  /** The page's content, given the data. */
  children: (data: T) => ReactNode;
}

const isEmptyArray = (data: unknown) => Array.isArray(data) && data.length === 0;

/**
 * One way for every list and detail page to show loading (an accessible progress bar),
 * failure (an error alert with Retry; the toast and the log were the base query's and the
 * page's part), a detail page's missing item (a sentence and a way back) and emptiness
 * (a sentence, with an optional action), then the content.
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
  notFound,
  children,
}: QueryStateProps<T>) {
  const t = useT();
  const { data, error, isLoading, refetch } = query;
  if (data === undefined) {
    const code = errorCode(error);
    if (notFound && (code === 'NOT_FOUND' || code === 'VALIDATION_FAILED')) {
      return (
        <Alert
          severity="info"
          role="status"
          action={
            <Button color="inherit" size="small" component={RouterLink} to={notFound.back.to}>
              {notFound.back.label}
            </Button>
          }
        >
          {notFound.message}
        </Alert>
      );
    }
    if (error && !isRequestCanceled(error)) {
      return (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void refetch()}>
              {t('common.retry')}
            </Button>
          }
        >
          {t('common.loadFailed', { what })}
        </Alert>
      );
    }
    if (isLoading || error) return <LinearProgress aria-label={t('common.loading', { what })} />;
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
