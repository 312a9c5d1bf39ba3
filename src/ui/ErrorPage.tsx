import { Alert, AlertTitle } from '@mui/material';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { messages } from '@common/messages';
import { AppShell } from './AppShell';

/** The router's error page: an unknown path, or an error the router caught. */
export function ErrorPage() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : undefined;
  return (
    <AppShell>
      <Alert severity="error" role="alert">
        <AlertTitle>{messages.routerError}</AlertTitle>
        {detail}
      </Alert>
    </AppShell>
  );
}
