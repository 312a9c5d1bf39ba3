import { Box, Typography } from '@mui/material';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { t } from '@/i18n/useT';

interface Props {
  children: ReactNode;
}

/** Catches a rendering error below it and shows the spec's apology instead of a blank page. */
export class ErrorBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <Box role="alert" sx={{ p: 2, border: 1, borderColor: 'error.main', borderRadius: 1 }}>
        <Typography component="h1" variant="h6" color="error.dark">
          {t('shell.errorTitle')}
        </Typography>
        <Typography>{t('shell.errorBody')}</Typography>
      </Box>
    );
  }
}
