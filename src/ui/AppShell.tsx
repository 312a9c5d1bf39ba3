import { Box, Container, Link, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { Outlet } from 'react-router-dom';
import { DEVELOPER_SITE } from '@common/constants';
import { messages } from '@common/messages';
import { ErrorBoundary } from './ErrorBoundary';
import { NavBar } from './NavBar';

/**
 * The frame of every page (spec section 1): the red development banner, the navigation,
 * the routed content (or `children`, for the router's error page) and the footer.
 */
export function AppShell({ children }: { children?: ReactNode }) {
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <Box
        role="note"
        sx={{
          bgcolor: 'error.main',
          color: 'error.contrastText',
          px: 2,
          py: 1,
          textAlign: 'center',
        }}
      >
        {messages.banner}
      </Box>
      <NavBar />
      <Container component="main" sx={{ flexGrow: 1, py: 3 }}>
        {children ?? (
          <ErrorBoundary>
            <Outlet />
          </ErrorBoundary>
        )}
      </Container>
      <Box component="footer" sx={{ py: 2, textAlign: 'center', bgcolor: 'grey.100' }}>
        <Typography variant="body2" color="text.secondary">
          © {new Date().getFullYear()} {messages.brand} ·{' '}
          <Link href={DEVELOPER_SITE.url} target="_blank" rel="noopener noreferrer">
            {DEVELOPER_SITE.label}
          </Link>
        </Typography>
      </Box>
    </Box>
  );
}
