import { AppBar, Box, Button, Toolbar, Typography } from '@mui/material';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { messages } from '@common/messages';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { loggedOut, selectIsAuthenticated } from '@/auth/auth.slice';
import { useCan } from '@/auth/useCan';
import { useListEntitiesQuery } from '@/api/entities.api';
import { groupByCategory } from '@/lib/entityCategories';
import { NavMenu, type NavMenuItem } from './NavMenu';

const link = (label: string, to: string) => (
  <Button color="inherit" component={RouterLink} to={to}>
    {label}
  </Button>
);

/** The Entities dropdown: Manage..., then the entities grouped by category. */
function EntitiesMenu() {
  // A user who may not list the entities (no role yet) gets no call and no toast.
  const mayList = useCan('GET', '/api/entities');
  const { data: entities = [] } = useListEntitiesQuery(undefined, { skip: !mayList });
  const groups = groupByCategory(entities).map(([category, members]): [string, NavMenuItem[]] => [
    category,
    members.map((entity) => ({
      key: entity._id,
      label: entity.name,
      to: `/entities/${entity.name}`,
    })),
  ]);
  return (
    <NavMenu
      label="Entities"
      items={[{ key: 'manage', label: 'Manage...', to: '/entities' }]}
      groups={groups}
    />
  );
}

/** The top navigation (spec section 2): what it offers depends on being signed in. */
export function NavBar() {
  const isAuthenticated = useAppSelector(selectIsAuthenticated);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();

  return (
    <AppBar position="static" component="nav" aria-label="Main">
      <Toolbar sx={{ gap: 1, flexWrap: 'wrap' }}>
        <Typography
          variant="h6"
          component={RouterLink}
          to="/"
          sx={{ mr: 2, color: 'inherit', textDecoration: 'none' }}
        >
          {messages.brand}
        </Typography>
        {link('Home', '/')}
        {isAuthenticated && (
          <>
            {link('Roles', '/roles')}
            {link('Users', '/users')}
            <EntitiesMenu />
            <NavMenu
              label="Experimental"
              items={[{ key: 'job', label: 'Job', to: '/lims/jobs' }]}
            />
            {link('Routes', '/routes')}
          </>
        )}
        <Box sx={{ flexGrow: 1 }} />
        {isAuthenticated ? (
          <Button
            color="inherit"
            onClick={async () => {
              // Home first, rendered at once (not in a transition): signed out while a private
              // page is still on screen, its guard would send us to /login.
              await navigate('/', { flushSync: true });
              dispatch(loggedOut());
            }}
          >
            Logout
          </Button>
        ) : (
          link('Login', '/login')
        )}
      </Toolbar>
    </AppBar>
  );
}
