import { useTheme } from '@mui/material/styles';
import type { GridLocaleText } from '@mui/x-data-grid';

/**
 * A grid's own texts on top of the DataGrid's texts in the language in effect (the theme's):
 * a grid's `localeText` prop replaces the theme's whole, so a grid that words its pager
 * would otherwise lose the rest of its French.
 */
export function useGridLocaleText(own: Partial<GridLocaleText>): Partial<GridLocaleText> {
  const components = useTheme().components as
    { MuiDataGrid?: { defaultProps?: { localeText?: Partial<GridLocaleText> } } } | undefined;
  return { ...components?.MuiDataGrid?.defaultProps?.localeText, ...own };
}
