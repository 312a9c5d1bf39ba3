import { Alert } from '@mui/material';
import type { ReactNode } from 'react';
import type { ApiPathOf, ApiVerb } from '@common/apiRoutes';
import { can, usePermissions } from './useCan';
import { useT } from '@/i18n/useT';

interface PermissionGateProps<V extends ApiVerb> {
  verb: V;
  /** A path the routes table has a `verb` route for, e.g. `/api/books`. */
  path: ApiPathOf<V>;
  /**
   * What the call gives, in the language in effect, for the sentence: `t('books.gateWhat')`
   * (en 'reading the books', fr 'lire les livres').
   */
  what: string;
  children: ReactNode;
}

/**
 * Renders `children` only when the user may call `verb` `path`; otherwise says in the
 * page that their role does not allow it (instead of a request and a 403 toast). Renders
 * nothing while the permissions load, or for a user with no role (told so once, above); if they cannot be loaded, the children try, and the
 * server answers for itself.
 * @example <PermissionGate verb="GET" path="/api/books" what={t('books.gateWhat')}>…
 */
export function PermissionGate<V extends ApiVerb>({
  verb,
  path,
  what,
  children,
}: PermissionGateProps<V>) {
  const { permissions, isKnown, isError } = usePermissions();
  const t = useT();
  if (isError && !isKnown) return children;
  if (!isKnown) return null;
  // A user with no role at all has PrivateScreen's one line saying so; a second adds nothing.
  if (permissions?.roles.length === 0) return null;
  if (!can(permissions, verb, path)) {
    return (
      <Alert severity="info" role="status">
        {t('common.roleDoesNotAllow', { what })}
      </Alert>
    );
  }
  return children;
}
