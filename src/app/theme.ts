import { createTheme } from '@mui/material/styles';
import type { Locale } from '@common/locales';
import { muiLocalization } from '@/i18n/i18n';

/**
 * Light and dark colour schemes as CSS variables, the one in effect named by a class on
 * <html> (`light` or `dark`): index.html's script sets it before the first paint (from the
 * choice kept in this browser, else the system's), then the ThemeProvider follows the
 * choice and the system.
 */
const themeOptions = {
  cssVariables: { colorSchemeSelector: 'class' },
  colorSchemes: {
    light: true,
    // The dark scheme's colours are light: text on them is chosen for WCAG's 4.5:1 (with
    // MUI's default 3:1, a red button's white text read at 3.7:1).
    dark: { palette: { contrastThreshold: 4.5 } },
  },
  components: {
    // A disabled field's help still explains something (why it is disabled): readable, not
    // the disabled grey (2.7:1).
    MuiFormHelperText: {
      styleOverrides: {
        root: ({ theme }) => ({ '&.Mui-disabled': { color: theme.vars.palette.text.secondary } }),
      },
    },
    MuiButton: {
      styleOverrides: {
        // A text button's hover tint leaves the light scheme's primary blue at 4.4:1, under
        // WCAG's 4.5:1: the text darkens with the tint.
        text: ({ ownerState, theme }) =>
          ownerState.color === 'primary'
            ? theme.applyStyles('light', { '&:hover': { color: theme.vars.palette.primary.dark } })
            : {},
      },
    },
  },
} satisfies Parameters<typeof createTheme>[0];

const themes = new Map<Locale, ReturnType<typeof createTheme>>();

/** The theme in a loaded language: MUI's and the DataGrid's own texts in it (made once). */
export function themeFor(locale: Locale) {
  let theme = themes.get(locale);
  if (!theme) themes.set(locale, (theme = createTheme(themeOptions, ...muiLocalization(locale))));
  return theme;
}
