import { Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/** A screen's title, with its main actions on the right. */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Stack
      direction="row"
      spacing={2}
      sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 2 }}
    >
      <Typography variant="h4" component="h1">
        {title}
      </Typography>
      <Stack direction="row" spacing={1}>
        {children}
      </Stack>
    </Stack>
  );
}
