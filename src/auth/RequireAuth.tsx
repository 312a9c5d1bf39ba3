import { Alert } from '@mui/material';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { messages } from '@common/messages';
import { useAppSelector } from '@/app/hooks';
import { selectIsAuthenticated } from './auth.slice';
import { useHasNoRole } from './useCan';

/**
 * Private screens: a signed-out visitor goes to /login, and comes back after signing in.
 * A user with no role at all (a new registration or Google sign-in) is told, once per
 * page, that an administrator must give them one.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const isAuthenticated = useAppSelector(selectIsAuthenticated);
  const hasNoRole = useHasNoRole();
  const location = useLocation();
  if (!isAuthenticated) return <Navigate to="/login" replace state={{ from: location }} />;
  return (
    <>
      {hasNoRole && (
        <Alert severity="warning" role="status" sx={{ mb: 2 }}>
          {messages.client.needsRole}
        </Alert>
      )}
      {children}
    </>
  );
}

/** Where to go after signing in: the private page the visitor asked for, or home. */
export function returnPath(state: unknown): string {
  const from = (state as { from?: { pathname?: string; search?: string } } | null)?.from;
  return from?.pathname ? `${from.pathname}${from.search ?? ''}` : '/';
}
