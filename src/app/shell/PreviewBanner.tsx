import { Box, Button } from '@mui/material';
import { previewEnded, selectPreviewRole } from '@/auth/auth.slice';
import { useT } from '@/i18n/useT';
import { useAppDispatch, useAppSelector } from '@/lib/store';

/**
 * While an admin sees the product as a role would (started on /roles), says so above every
 * page, with the one click back.
 */
export function PreviewBanner() {
  const t = useT();
  const role = useAppSelector(selectPreviewRole);
  const dispatch = useAppDispatch();
  if (!role) return null;
  return (
    <Box
      role="status"
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 1,
        px: 1,
        py: 0.5,
        bgcolor: 'warning.light',
        color: 'common.black',
      }}
    >
      {t('shell.previewBanner', { role })}
      <Button
        size="small"
        variant="outlined"
        color="inherit"
        onClick={() => dispatch(previewEnded())}
      >
        {t('shell.previewEnd')}
      </Button>
    </Box>
  );
}
