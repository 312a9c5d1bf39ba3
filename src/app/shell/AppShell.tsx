import { Box, Typography } from '@mui/material';
import { keyframes } from '@emotion/react';
import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { DEVELOPER_SITE } from '@common/constants';
import { useT } from '@/i18n/useT';
import { ErrorBoundary } from '@/ui/ErrorBoundary';
import { NavBar } from './NavBar';
import { PreviewBanner } from './PreviewBanner';

const sweep = keyframes`from { transform: translateX(-100%); } to { transform: translateX(250%); }`;

/** Shown while a screen's chunk loads: a thin bar sweeping under the navigation. */
function PageLoading() {
  const t = useT();
  return (
    <Box
      role="progressbar"
      aria-label={t('shell.loading')}
      sx={{ height: 4, overflow: 'hidden', bgcolor: 'primary.light', opacity: 0.6 }}
    >
      <Box
        sx={{
          width: '40%',
          height: '100%',
          bgcolor: 'primary.main',
          animation: `${sweep} 1.2s ease-in-out infinite`,
        }}
      />
    </Box>
  );
}

/**
 * The frame of every page (spec section 1): the red development banner and the navigation
 * (the page's header), the routed content and the footer.
 */
export function AppShell() {
  const t = useT();
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <header>
        <Box
          component="a"
          href="#main"
          sx={{
            position: 'absolute',
            left: 8,
            top: -48,
            zIndex: 'tooltip',
            p: 1,
            bgcolor: 'background.paper',
            color: 'primary.dark',
            '&:focus': { top: 8 },
          }}
        >
          {t('shell.skipToContent')}
        </Box>
        <Box
          role="note"
          sx={{
            // The light scheme's error red in both schemes, as index.html paints it first:
            // the dark scheme's lighter red leaves the white text at 3.7:1.
            bgcolor: '#d32f2f',
            color: '#fff',
            px: 1,
            py: 0.5,
            textAlign: 'center',
            // Two lines at most on a phone: the words stay as the spec has them.
            fontSize: { xs: '0.75rem', sm: '0.875rem' },
            lineHeight: 1.4,
          }}
        >
          {t('shell.banner')}
        </Box>
        <NavBar />
        <PreviewBanner />
      </header>
      <Box
        component="main"
        id="main"
        // The skip link's target: focus lands here, then Tab goes on into the page.
        tabIndex={-1}
        sx={{
          outline: 'none',
          flexGrow: 1,
          // The footer starts below the fold, so a page that grows as it loads pushes
          // nothing the reader already sees (no layout shift).
          minHeight: '100vh',
          width: '100%',
          maxWidth: 'lg',
          mx: 'auto',
          py: { xs: 2, sm: 3 },
          px: { xs: 1.5, sm: 3 },
        }}
      >
        <ErrorBoundary>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </Box>
      <Box
        component="footer"
        sx={(theme) => ({
          py: 2,
          px: 1,
          textAlign: 'center',
          bgcolor: 'grey.100',
          ...theme.applyStyles('dark', { bgcolor: 'grey.900' }),
        })}
      >
        <Typography variant="body2" color="text.secondary">
          © {new Date().getFullYear()} {t('shell.brand')} ·{' '}
          {/* The theme's link blue reads at 4.2:1 on the grey: its darker shade passes AA. */}
          <Box
            component="a"
            href={DEVELOPER_SITE.url}
            target="_blank"
            rel="noopener noreferrer"
            sx={{ color: 'primary.dark' }}
          >
            {t('shell.developerSite')}
          </Box>
        </Typography>
      </Box>
    </Box>
  );
}
