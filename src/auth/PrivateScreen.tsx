import { Alert } from '@mui/material';
import type { ReactNode } from 'react';
import { useLiveUpdates } from '@/api/liveUpdates';
import { useHasNoRole } from './useCan';
import { useT } from '@/i18n/useT';

/**
 * A private screen for a signed-in user (RequireAuth let them in). A user with no role at
 * all (a new registration or Google sign-in) is told, once per page, that an administrator
 * must give them one. Its data stays current: the event stream is open meanwhile.
 */
export function PrivateScreen({ children }: { children: ReactNode }) {
  const hasNoRole = useHasNoRole();
  const t = useT();
  useLiveUpdates();
  return (
    <>
      {hasNoRole && (
        <Alert severity="warning" role="status" sx={{ mb: 2 }}>
          {t('common.needsRole')}
        </Alert>
      )}
      {children}
    </>
  );
}
