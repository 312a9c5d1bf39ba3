import { Stack } from '@mui/material';
import type { ReactNode } from 'react';
import type { GridLayoutController } from '@/hooks/useGridLayout';
import { ColumnChooser } from './ColumnChooser';
import { SavedViews } from './SavedViews';
import { SearchField } from './SearchField';

/**
 * The tools above a list: its quick search, then its other tools (Columns, Export, …) to
 * the right; on a narrow screen they wrap under the search. Under them, the list's saved
 * views (`grid` names the list for them).
 */
export function ListToolbar({
  search,
  grid,
  chooser,
  children,
}: {
  search?: { value: string; onChange: (value: string) => void; placeholder?: string };
  grid?: string;
  /** The grid's column chooser (`useGridLayout`). */
  chooser?: GridLayoutController['chooser'];
  children?: ReactNode;
}) {
  return (
    <>
      <Stack
        direction="row"
        useFlexGap
        sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: grid ? 1 : 2 }}
      >
        {search && <SearchField {...search} />}
        <Stack direction="row" spacing={1} sx={{ ml: 'auto' }}>
          {chooser && <ColumnChooser chooser={chooser} />}
          {children}
        </Stack>
      </Stack>
      {grid && <SavedViews grid={grid} />}
    </>
  );
}
