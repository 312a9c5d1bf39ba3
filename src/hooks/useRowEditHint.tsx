import { Typography } from '@mui/material';
import { useId, useMemo } from 'react';
import { useT } from '@/i18n/useT';

/**
 * For a grid edited row by row: a line saying what Enter and Escape do, and the grid's
 * `slotProps` that make every row point to it (aria-describedby), so a screen reader says
 * it on each row. Nothing when the user may not edit.
 */
export function useRowEditHint(mayEdit: boolean) {
  const t = useT();
  const id = useId();
  const slotProps = useMemo(
    () => (mayEdit ? { row: { 'aria-describedby': id } } : undefined),
    [mayEdit, id],
  );
  const hint = mayEdit ? (
    <Typography id={id} variant="body2" color="text.secondary" sx={{ mt: 1 }}>
      {t('grid.rowEditHint')}
    </Typography>
  ) : null;
  return { slotProps, hint };
}
