import { Box, type SxProps, type Theme, useMediaQuery } from '@mui/material';
import { useColorScheme } from '@mui/material/styles';
import {
  lazy,
  type MouseEvent,
  type ReactNode,
  Suspense,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import { LOCALE_NAMES, LOCALES } from '@common/locales';
import { useAppDispatch, useAppSelector } from '@/lib/store';
import { loggedOut, selectIsAuthenticated } from '@/auth/auth.slice';
import type { MessageId } from '@/i18n/i18n';
import { useT } from '@/i18n/useT';
import { localeChosen, selectLocale } from '@/ui/ui.slice';
import { loadChunk } from '@/lib/loadChunk';
import { HOME, LOGIN, type NavItem, SIGNED_IN_LINKS } from './navItems';

// The dropdowns' panels and the phone's menu load on first use (and are fetched ahead when
// the pointer or focus reaches their button): the first page does without MUI's popups.
const loadPanels = () => loadChunk(() => import('./NavPanels'));
const NavDropdownPanel = lazy(async () => ({ default: (await loadPanels()).NavDropdownPanel }));
const NavDrawer = lazy(async () => ({ default: (await loadPanels()).NavDrawer }));
const preloadPanels = () => void loadPanels();
const Permitted = lazy(async () => ({
  default: (await loadChunk(() => import('./Permitted'))).Permitted,
}));

/** Links and buttons of the bar look alike: the theme's button type, a light hover. */
const itemSx = {
  display: 'inline-flex',
  alignItems: 'center',
  gap: 0.5,
  px: 1,
  py: 0.75,
  border: 0,
  borderRadius: 1,
  bgcolor: 'transparent',
  color: 'inherit',
  cursor: 'pointer',
  textDecoration: 'none',
  whiteSpace: 'nowrap',
  typography: 'button',
  // Darker on hover: a lighter blue left the white text at 3.8:1.
  '&:hover': { bgcolor: 'rgba(0, 0, 0, 0.12)' },
  '&:focus-visible': { outline: '2px solid currentColor', outlineOffset: 1 },
} satisfies SxProps<Theme>;

function NavLink({ item }: { item: NavItem }) {
  const t = useT();
  return (
    <Box component={RouterLink} to={item.to} sx={itemSx}>
      {t(item.label)}
    </Box>
  );
}

function NavButton(props: {
  children: ReactNode;
  onClick: (event: MouseEvent<HTMLButtonElement>) => void;
  expanded?: boolean;
  controls?: string;
  preload?: boolean;
}) {
  const { children, onClick, expanded, controls, preload } = props;
  return (
    <Box
      component="button"
      type="button"
      sx={itemSx}
      onClick={onClick}
      aria-expanded={expanded}
      aria-controls={expanded ? controls : undefined}
      onPointerEnter={preload ? preloadPanels : undefined}
      onFocus={preload ? preloadPanels : undefined}
    >
      {children}
    </Box>
  );
}

/** A small icon drawn inline (the bar loads no icon library). */
function Icon({ path }: { path: string }) {
  return (
    <Box component="svg" viewBox="0 0 24 24" aria-hidden sx={{ width: 20, height: 20 }}>
      <path d={path} fill="currentColor" />
    </Box>
  );
}
const EXPAND_PATH = 'M7 10l5 5 5-5z';
const MOON_PATH =
  'M12 3c-4.97 0-9 4.03-9 9s4.03 9 9 9 9-4.03 9-9c0-.46-.04-.92-.1-1.36-.98 1.37-2.58 2.26-4.4 2.26-2.98 0-5.4-2.42-5.4-5.4 0-1.81.89-3.42 2.26-4.4-.44-.06-.9-.1-1.36-.1z';
const SUN_PATH =
  'M12 7a5 5 0 1 0 0 10 5 5 0 0 0 0-10zM2 13h2a1 1 0 0 0 0-2H2a1 1 0 0 0 0 2zm18 0h2a1 1 0 0 0 0-2h-2a1 1 0 0 0 0 2zM11 2v2a1 1 0 0 0 2 0V2a1 1 0 0 0-2 0zm0 18v2a1 1 0 0 0 2 0v-2a1 1 0 0 0-2 0zM5.99 4.58a1 1 0 0 0-1.41 1.41l1.06 1.06a1 1 0 0 0 1.41-1.41zm12.37 12.37a1 1 0 0 0-1.41 1.41l1.06 1.06a1 1 0 0 0 1.41-1.41zm1.06-10.96a1 1 0 0 0-1.41-1.41l-1.06 1.06a1 1 0 0 0 1.41 1.41zM7.05 18.36a1 1 0 0 0-1.41-1.41l-1.06 1.06a1 1 0 0 0 1.41 1.41z';
const MENU_PATH = 'M3 18h18v-2H3zm0-5h18v-2H3zm0-7v2h18V6z';

/** A dropdown of links (disclosure pattern): its button, and its panel once opened. */
function NavDropdown(props: { label: MessageId; kind: 'entities' | 'experimental' }) {
  const { kind } = props;
  const label = useT()(props.label);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [used, setUsed] = useState(false);
  const id = useId();
  return (
    <>
      <NavButton
        expanded={Boolean(anchor)}
        controls={id}
        preload
        onClick={(event) => {
          setAnchor(event.currentTarget);
          setUsed(true);
        }}
      >
        {label}
        <Icon path={EXPAND_PATH} />
      </NavButton>
      {used && (
        <Suspense fallback={null}>
          <NavDropdownPanel
            id={id}
            label={label}
            kind={kind}
            anchor={anchor}
            onClose={() => setAnchor(null)}
          />
        </Suspense>
      )}
    </>
  );
}

/**
 * The dark theme, on or off (a toggle button, at every width). It follows the system until
 * switched; switched to the system's own scheme, it follows the system again.
 */
function ThemeToggle() {
  const { mode, setMode } = useColorScheme();
  // The system's scheme, whatever the mode (MUI tells it only while following the system).
  const systemDark = useMediaQuery('(prefers-color-scheme: dark)', { noSsr: true });
  const systemMode = systemDark ? 'dark' : 'light';
  const dark = (mode === 'system' ? systemMode : mode) === 'dark';
  const next = dark ? 'light' : 'dark';
  const t = useT();
  return (
    <Box
      component="button"
      type="button"
      aria-label={t('shell.darkTheme')}
      aria-pressed={dark}
      sx={itemSx}
      onClick={() => setMode(next === systemMode ? 'system' : next)}
    >
      <Icon path={dark ? SUN_PATH : MOON_PATH} />
    </Box>
  );
}

/**
 * The language: a button that switches to the other one, named in it (so someone who cannot
 * read the page's language can still find their own), beside the theme's toggle.
 */
function LanguageSwitch() {
  const dispatch = useAppDispatch();
  const current = useAppSelector(selectLocale);
  const other = LOCALES.find((locale) => locale !== current)!;
  return (
    <Box
      component="button"
      type="button"
      lang={other}
      aria-label={LOCALE_NAMES[other]}
      title={LOCALE_NAMES[other]}
      sx={itemSx}
      onClick={() => dispatch(localeChosen(other))}
    >
      {other.toUpperCase()}
    </Box>
  );
}

/**
 * Logout: home first, and the sign-out once home is on screen (a private page still on
 * screen when the session ends would send the user to /login, its guard's place).
 */
function useLogout() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const dispatch = useAppDispatch();
  const leaving = useRef(false);
  useEffect(() => {
    if (!leaving.current || pathname !== '/') return;
    leaving.current = false;
    dispatch(loggedOut());
  }, [pathname, dispatch]);
  return () => {
    if (pathname === '/') {
      dispatch(loggedOut());
      return;
    }
    leaving.current = true;
    void navigate('/');
  };
}

/** The phone's navigation: a Menu button that opens every link in a side panel. */
function PhoneMenu({ onLogout }: { onLogout(): void }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  const id = useId();
  return (
    <>
      <NavButton
        expanded={open}
        controls={id}
        preload
        onClick={() => {
          setOpen(true);
          setUsed(true);
        }}
      >
        <Icon path={MENU_PATH} />
        {t('shell.menu')}
      </NavButton>
      {used && (
        <Suspense fallback={null}>
          <NavDrawer id={id} open={open} onClose={() => setOpen(false)} onLogout={onLogout} />
        </Suspense>
      )}
    </>
  );
}

/**
 * The top navigation (spec section 2): what it offers depends on being signed in. Wide
 * screens show every link; below MUI's `md` (900 px) they fold into the Menu button.
 */
export function NavBar() {
  const isAuthenticated = useAppSelector(selectIsAuthenticated);
  const logout = useLogout();
  const t = useT();
  const wide = { display: { xs: 'none', md: 'flex' }, alignItems: 'center', gap: 0.5 } as const;

  return (
    // The look of MUI's AppBar and Toolbar, without loading them on every first page.
    <Box
      component="nav"
      aria-label={t('shell.mainNavigation')}
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 1,
        minHeight: { xs: 48, sm: 56 },
        px: { xs: 1, sm: 2 },
        bgcolor: 'primary.main',
        color: 'primary.contrastText',
        boxShadow: 4,
      }}
    >
      <Box
        component={RouterLink}
        to="/"
        sx={{ ...itemSx, typography: 'h6', mr: 1, whiteSpace: 'normal', lineHeight: 1.2 }}
      >
        {t('shell.brand')}
      </Box>
      <Box sx={wide}>
        <NavLink item={HOME} />
        {isAuthenticated && (
          <>
            <NavLink item={SIGNED_IN_LINKS.roles} />
            <NavLink item={SIGNED_IN_LINKS.users} />
            <NavDropdown label="shell.entities" kind="entities" />
            <NavDropdown label="shell.experimental" kind="experimental" />
            <NavLink item={SIGNED_IN_LINKS.routes} />
            <Suspense fallback={null}>
              <Permitted verb="GET" path="/api/audit">
                <NavLink item={SIGNED_IN_LINKS.audit} />
              </Permitted>
            </Suspense>
          </>
        )}
      </Box>
      <Box sx={{ flexGrow: 1 }} />
      <LanguageSwitch />
      <ThemeToggle />
      <Box sx={wide}>
        {isAuthenticated ? (
          <>
            <NavLink item={SIGNED_IN_LINKS.account} />
            <NavButton onClick={logout}>{t('shell.logout')}</NavButton>
          </>
        ) : (
          <NavLink item={LOGIN} />
        )}
      </Box>
      <Box sx={{ display: { xs: 'flex', md: 'none' } }}>
        <PhoneMenu onLogout={logout} />
      </Box>
    </Box>
  );
}
