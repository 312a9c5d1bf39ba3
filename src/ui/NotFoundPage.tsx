import { Alert, Typography } from '@mui/material';
import { useT } from '@/i18n/useT';

/** The router's error page for a path it does not know (spec section 8). */
export function NotFoundPage() {
  const t = useT();
  return (
    <Alert severity="error" role="alert">
      <Typography component="h1" variant="h6">
        {t('shell.routerError')}
      </Typography>
      {t('shell.notFound')}
    </Alert>
  );
}
