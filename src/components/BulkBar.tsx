import { Button, Paper, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import type { RowSelection } from '@/hooks/useRowSelection';

/**
 * Above a grid while rows are selected: how many, "Select all N matching" once the whole
 * page is ticked, Clear, and the actions the user may take on them.
 */
export function BulkBar({
  selection,
  total,
  what,
  children,
}: {
  selection: RowSelection;
  total: number;
  /** What a row is, in the plural ("records"). */
  what: string;
  children: ReactNode;
}) {
  if (selection.count === 0) return null;
  return (
    <Paper
      variant="outlined"
      role="region"
      aria-label={`Selected ${what}`}
      sx={{ mb: 1, px: 2, py: 1 }}
    >
      <Stack direction="row" useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
        <Typography aria-live="polite">
          {selection.allMatching
            ? `All ${total.toLocaleString()} ${what} matching are selected`
            : `${selection.count.toLocaleString()} selected`}
        </Typography>
        {selection.mayWiden && (
          <Button size="small" onClick={selection.selectAllMatching}>
            Select all {total.toLocaleString()} matching
          </Button>
        )}
        <Button size="small" onClick={selection.clear}>
          Clear selection
        </Button>
        <Stack direction="row" spacing={1} sx={{ ml: 'auto' }}>
          {children}
        </Stack>
      </Stack>
    </Paper>
  );
}
