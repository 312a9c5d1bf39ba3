import { createTheme } from '@mui/material/styles';

export const theme = createTheme({
  palette: { mode: 'light' },
  components: {
    // A disabled field's help still explains something (why it is disabled): readable, not
    // the disabled grey (2.7:1).
    MuiFormHelperText: {
      styleOverrides: {
        root: ({ theme }) => ({ '&.Mui-disabled': { color: theme.palette.text.secondary } }),
      },
    },
    MuiButton: {
      styleOverrides: {
        // A text button's hover tint leaves the primary blue at 4.4:1, under WCAG's 4.5:1:
        // the text darkens with the tint.
        text: ({ ownerState, theme }) =>
          ownerState.color === 'primary'
            ? { '&:hover': { color: theme.palette.primary.dark } }
            : {},
      },
    },
  },
});
