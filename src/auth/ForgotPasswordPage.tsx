import { Button, Paper, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { useT } from '@/i18n/useT';

/**
 * `/forgot-password`: there is no email service, so a password is reset by an
 * administrator (on /users); the page says so and leads back to sign-in.
 */
export function ForgotPasswordPage() {
  const t = useT();
  return (
    <Paper component="section" sx={{ maxWidth: 420, mx: 'auto', p: 3 }}>
      <Stack spacing={2}>
        <Typography variant="h4" component="h1">
          {t('auth.forgotTitle')}
        </Typography>
        <Typography>{t('auth.forgotHelp')}</Typography>
        <Button component={RouterLink} to="/login" variant="contained" sx={{ alignSelf: 'start' }}>
          {t('auth.backToSignIn')}
        </Button>
      </Stack>
    </Paper>
  );
}
