import { Alert, Typography } from '@mui/material';
import { messages } from '@common/messages';

/** The router's error page for a path it does not know (spec section 8). */
export function NotFoundPage() {
  return (
    <Alert severity="error" role="alert">
      <Typography component="h1" variant="h6">
        {messages.routerError}
      </Typography>
      404 Not Found
    </Alert>
  );
}
