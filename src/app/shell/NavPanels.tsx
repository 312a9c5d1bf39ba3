import {
  Box,
  Drawer,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  ListSubheader,
  Popover,
} from '@mui/material';
import { type ReactNode, useId } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useAppSelector } from '@/lib/store';
import { selectIsAuthenticated } from '@/auth/auth.slice';
import { useCan } from '@/auth/useCan';
import { useListEntitiesQuery } from '@/features/entities/entities.api';
import { groupByCategory } from '@/lib/entityCategories';
import { ApiReady } from '../ApiReady';
import { EXPERIMENTAL_ITEMS, MANAGE_ENTITIES, type NavItem, SIGNED_IN_LINKS } from './navItems';

/** One link of a panel; choosing it closes the panel. */
function PanelLink({ item, onChosen }: { item: NavItem; onChosen(): void }) {
  return (
    <ListItem disablePadding>
      <ListItemButton component={RouterLink} to={item.to} onClick={onChosen}>
        <ListItemText primary={item.label} />
      </ListItemButton>
    </ListItem>
  );
}

/** A titled group of links: the title, then a list named by it. */
function PanelGroup({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <ListItem disablePadding sx={{ display: 'block' }}>
      <ListSubheader id={id} component="div" disableSticky sx={{ lineHeight: 2.5 }}>
        {title}
      </ListSubheader>
      <List dense disablePadding aria-labelledby={id} sx={{ pl: 1 }}>
        {children}
      </List>
    </ListItem>
  );
}

/** Manage..., then the entities grouped by category (spec section 2). */
function EntityLinks({ onChosen }: { onChosen(): void }) {
  // A user who may not list the entities (no role yet) gets no call and no toast.
  const mayList = useCan('GET', '/api/entities');
  const { data: entities = [] } = useListEntitiesQuery(undefined, { skip: !mayList });
  return (
    <>
      <PanelLink item={MANAGE_ENTITIES} onChosen={onChosen} />
      {groupByCategory(entities).map(([category, members]) => (
        <PanelGroup key={category} title={category}>
          {members.map((entity) => (
            <PanelLink
              key={entity._id}
              item={{ label: entity.name, to: `/entities/${entity.name}` }}
              onChosen={onChosen}
            />
          ))}
        </PanelGroup>
      ))}
    </>
  );
}

/** A dropdown's panel under its button: the Entities or the Experimental links. */
export function NavDropdownPanel(props: {
  id: string;
  label: string;
  kind: 'entities' | 'experimental';
  anchor: HTMLElement | null;
  onClose(): void;
}) {
  const { id, label, kind, anchor, onClose } = props;
  return (
    <Popover
      id={id}
      open={Boolean(anchor)}
      anchorEl={anchor}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
    >
      <Box component="nav" aria-label={label}>
        <List dense sx={{ minWidth: 200 }}>
          {kind === 'entities' ? (
            <ApiReady>
              <EntityLinks onChosen={onClose} />
            </ApiReady>
          ) : (
            EXPERIMENTAL_ITEMS.map((item) => (
              <PanelLink key={item.to} item={item} onChosen={onClose} />
            ))
          )}
        </List>
      </Box>
    </Popover>
  );
}

/** The phone's navigation: every link of the bar in a side panel. */
/** The audit log's link, for those whose role may read it. */
function AuditLink({ link }: { link(item: NavItem): ReactNode }) {
  return useCan('GET', '/api/audit') ? link(SIGNED_IN_LINKS.audit) : null;
}

export function NavDrawer(props: { id: string; open: boolean; onClose(): void; onLogout(): void }) {
  const { id, open, onClose, onLogout } = props;
  const isAuthenticated = useAppSelector(selectIsAuthenticated);
  const link = (item: NavItem) => <PanelLink key={item.to} item={item} onChosen={onClose} />;
  return (
    <Drawer
      id={id}
      anchor="right"
      open={open}
      onClose={onClose}
      // The panel is a dialog (MUI): it needs a name as much as the navigation in it.
      slotProps={{ paper: { 'aria-label': 'Menu' } }}
    >
      <Box component="nav" aria-label="Main menu" sx={{ width: 280, maxWidth: '85vw' }}>
        <List>
          {link({ label: 'Home', to: '/' })}
          {isAuthenticated ? (
            <>
              {link(SIGNED_IN_LINKS.roles)}
              {link(SIGNED_IN_LINKS.users)}
              <PanelGroup title="Entities">
                <ApiReady>
                  <EntityLinks onChosen={onClose} />
                </ApiReady>
              </PanelGroup>
              <PanelGroup title="Experimental">{EXPERIMENTAL_ITEMS.map(link)}</PanelGroup>
              {link(SIGNED_IN_LINKS.routes)}
              <ApiReady>
                <AuditLink link={link} />
              </ApiReady>
              {link(SIGNED_IN_LINKS.account)}
              <ListItem disablePadding>
                <ListItemButton
                  onClick={() => {
                    onClose();
                    onLogout();
                  }}
                >
                  <ListItemText primary="Logout" />
                </ListItemButton>
              </ListItem>
            </>
          ) : (
            link({ label: 'Login', to: '/login' })
          )}
        </List>
      </Box>
    </Drawer>
  );
}
