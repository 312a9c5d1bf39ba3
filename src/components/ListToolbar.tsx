import { Stack } from '@mui/material';
import type { ReactNode } from 'react';
import { SearchField } from './SearchField';

/**
 * The tools above a list: its quick search, then its other tools (Export, …) to the right;
 * on a narrow screen they wrap under the search.
 */
export function ListToolbar({
  search,
  children,
}: {
  search?: { value: string; onChange: (value: string) => void; placeholder?: string };
  children?: ReactNode;
}) {
  return (
    <Stack
      direction="row"
      useFlexGap
      sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: 2 }}
    >
      {search && <SearchField {...search} />}
      <Stack direction="row" spacing={1} sx={{ ml: 'auto' }}>
        {children}
      </Stack>
    </Stack>
  );
}
