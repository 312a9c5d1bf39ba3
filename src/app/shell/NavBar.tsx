import { Box, type SxProps, type Theme } from '@mui/material';
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
import { messages } from '@common/messages';
import { useAppDispatch, useAppSelector } from '@/lib/store';
import { loggedOut, selectIsAuthenticated } from '@/auth/auth.slice';
import { loadChunk } from '@/lib/loadChunk';
import { type NavItem, SIGNED_IN_LINKS } from './navItems';

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
  return (
    <Box component={RouterLink} to={item.to} sx={itemSx}>
      {item.label}
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
const MENU_PATH = 'M3 18h18v-2H3zm0-5h18v-2H3zm0-7v2h18V6z';

/** A dropdown of links (disclosure pattern): its button, and its panel once opened. */
function NavDropdown({ label, kind }: { label: string; kind: 'entities' | 'experimental' }) {
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
        Menu
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
  const wide = { display: { xs: 'none', md: 'flex' }, alignItems: 'center', gap: 0.5 } as const;

  return (
    // The look of MUI's AppBar and Toolbar, without loading them on every first page.
    <Box
      component="nav"
      aria-label="Main"
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
        {messages.brand}
      </Box>
      <Box sx={wide}>
        <NavLink item={{ label: 'Home', to: '/' }} />
        {isAuthenticated && (
          <>
            <NavLink item={SIGNED_IN_LINKS.roles} />
            <NavLink item={SIGNED_IN_LINKS.users} />
            <NavDropdown label="Entities" kind="entities" />
            <NavDropdown label="Experimental" kind="experimental" />
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
      <Box sx={wide}>
        {isAuthenticated ? (
          <>
            <NavLink item={SIGNED_IN_LINKS.account} />
            <NavButton onClick={logout}>Logout</NavButton>
          </>
        ) : (
          <NavLink item={{ label: 'Login', to: '/login' }} />
        )}
      </Box>
      <Box sx={{ display: { xs: 'flex', md: 'none' } }}>
        <PhoneMenu onLogout={logout} />
      </Box>
    </Box>
  );
}
