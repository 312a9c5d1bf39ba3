import { Alert, Box, Button, Stack } from '@mui/material';
import { useEffect, useRef } from 'react';
import { useT } from '@/i18n/useT';

/** Recovery codes, shown once: the person saves them, then goes on. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone(): void }) {
  const t = useT();
  // The focus goes to the warning, so it is read before the codes and the way on.
  const warning = useRef<HTMLDivElement>(null);
  useEffect(() => warning.current?.focus(), []);
  return (
    <Stack spacing={2}>
      <Alert severity="warning" ref={warning} tabIndex={-1}>
        {t('auth.recoveryCodesHelp')}
      </Alert>
      <Box
        component="ul"
        aria-label={t('auth.recoveryCodes')}
        sx={{
          fontFamily: 'monospace',
          columns: { xs: 1, sm: 2 },
          m: 0,
          pl: 3,
          '& li': { whiteSpace: 'nowrap' },
        }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
      <Stack direction="row" spacing={1}>
        <Button onClick={() => void navigator.clipboard?.writeText(codes.join('\n'))}>
          {t('auth.copyCodes')}
        </Button>
        <Button variant="contained" onClick={onDone}>
          {t('auth.savedThem')}
        </Button>
      </Stack>
    </Stack>
  );
}
