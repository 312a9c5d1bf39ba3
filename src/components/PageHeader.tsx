import { Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/**
 * A screen's title, with its main actions on the right; on a narrow screen the actions wrap
 * under a long title rather than push the page sideways.
 */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Stack
      direction="row"
      useFlexGap
      sx={{
        alignItems: 'center',
        justifyContent: 'space-between',
        flexWrap: 'wrap',
        gap: 1,
        columnGap: 2,
        mb: 2,
      }}
    >
      <Typography variant="h4" component="h1" sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>
        {title}
      </Typography>
      <Stack direction="row" spacing={1}>
        {children}
      </Stack>
    </Stack>
  );
}
