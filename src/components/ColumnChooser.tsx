import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import ViewColumnIcon from '@mui/icons-material/ViewColumn';
import {
  Box,
  Button,
  Checkbox,
  FormControlLabel,
  IconButton,
  Popover,
  Stack,
  Typography,
} from '@mui/material';
import { useId, useState } from 'react';
import type { GridLayoutController } from '@/hooks/useGridLayout';
import { useT } from '@/i18n/useT';

/**
 * Columns: which columns the grid shows and in what order (the community DataGrid cannot
 * reorder them by dragging), and back to the grid's own. Each change goes to the URL.
 */
export function ColumnChooser({ chooser }: { chooser: GridLayoutController['chooser'] }) {
  const t = useT();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const panelId = useId();
  const titleId = useId();
  const shown = chooser.columns.filter((column) => column.shown);
  return (
    <>
      <Button
        startIcon={<ViewColumnIcon />}
        aria-haspopup="dialog"
        aria-controls={anchor ? panelId : undefined}
        aria-expanded={anchor ? 'true' : 'false'}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        {t('grid.columns')}
      </Button>
      <Popover
        id={panelId}
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { role: 'dialog', 'aria-labelledby': titleId } }}
      >
        <Box sx={{ p: 2, minWidth: 260, maxWidth: '90vw' }}>
          <Typography id={titleId} variant="subtitle1" component="h2" sx={{ mb: 1 }}>
            {t('grid.columns')}
          </Typography>
          <Stack component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }}>
            {chooser.columns.map((column) => {
              const place = shown.findIndex((c) => c.field === column.field);
              const onlyOne = column.shown && shown.length === 1;
              return (
                <Stack
                  component="li"
                  key={column.field}
                  direction="row"
                  sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 1 }}
                >
                  <FormControlLabel
                    control={
                      <Checkbox
                        checked={column.shown}
                        // The grid keeps one column at least.
                        disabled={onlyOne}
                        onChange={() => chooser.toggle(column.field)}
                      />
                    }
                    label={column.name}
                  />
                  {column.shown && (
                    <span>
                      <IconButton
                        size="small"
                        aria-label={t('grid.moveLeft', { name: column.name })}
                        disabled={place === 0}
                        onClick={() => chooser.move(column.field, -1)}
                      >
                        <ArrowUpwardIcon fontSize="small" />
                      </IconButton>
                      <IconButton
                        size="small"
                        aria-label={t('grid.moveRight', { name: column.name })}
                        disabled={place === shown.length - 1}
                        onClick={() => chooser.move(column.field, 1)}
                      >
                        <ArrowDownwardIcon fontSize="small" />
                      </IconButton>
                    </span>
                  )}
                </Stack>
              );
            })}
          </Stack>
          <Button sx={{ mt: 1 }} disabled={!chooser.isChanged} onClick={chooser.reset}>
            {t('grid.resetColumns')}
          </Button>
        </Box>
      </Popover>
    </>
  );
}
