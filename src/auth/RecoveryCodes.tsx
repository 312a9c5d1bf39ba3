import { Alert, Box, Button, Stack } from '@mui/material';
import { messages } from '@common/messages';

/** Recovery codes, shown once: the person saves them, then goes on. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone(): void }) {
  return (
    <Stack spacing={2}>
      <Alert severity="warning">{messages.auth.recoveryCodesHelp}</Alert>
      <Box
        component="ul"
        aria-label="Recovery codes"
        sx={{ fontFamily: 'monospace', columns: 2, m: 0, pl: 3 }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
      <Stack direction="row" spacing={1}>
        <Button onClick={() => void navigator.clipboard?.writeText(codes.join('\n'))}>
          Copy codes
        </Button>
        <Button variant="contained" onClick={onDone} autoFocus>
          I have saved them
        </Button>
      </Stack>
    </Stack>
  );
}
