import { Button, Paper, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import type { RowSelection } from '@/hooks/useRowSelection';
import { useT } from '@/i18n/useT';

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
  const t = useT();
  if (selection.count === 0) return null;
  return (
    <Paper
      variant="outlined"
      role="region"
      aria-label={t('bulk.region', { what })}
      sx={{ mb: 1, px: 2, py: 1 }}
    >
      <Stack direction="row" useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
        <Typography aria-live="polite">
          {selection.allMatching
            ? t('bulk.allMatching', { total, what })
            : t('bulk.selected', { count: selection.count })}
        </Typography>
        {selection.mayWiden && (
          <Button size="small" onClick={selection.selectAllMatching}>
            {t('bulk.selectAll', { total })}
          </Button>
        )}
        <Button size="small" onClick={selection.clear}>
          {t('bulk.clear')}
        </Button>
        <Stack direction="row" spacing={1} sx={{ ml: 'auto' }}>
          {children}
        </Stack>
      </Stack>
    </Paper>
  );
}
