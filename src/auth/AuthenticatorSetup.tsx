import { Box, Stack, Typography } from '@mui/material';
import type { TotpEnrolment } from '@common/schemas/signIn';
import { useT } from '@/i18n/useT';

/** An authenticator app's set-up: its QR code, and the secret to type instead. */
export function AuthenticatorSetup({ enrolment }: { enrolment: TotpEnrolment }) {
  const t = useT();
  return (
    <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
      <Box
        component="img"
        src={enrolment.qrCode}
        alt={t('auth.qrAlt')}
        sx={{ width: 200, height: 200, bgcolor: 'common.white' }}
      />
      <Typography variant="body2">
        {t('auth.secret')}{' '}
        <Box
          component="code"
          data-testid="authenticator-secret"
          sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}
        >
          {enrolment.secret}
        </Box>
      </Typography>
    </Stack>
  );
}
