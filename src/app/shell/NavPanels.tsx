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
import { useT } from '@/i18n/useT';
import { useListEntitiesQuery } from '@/features/entities/entities.api';
import { groupByCategory } from '@/lib/entityCategories';
import { ApiReady } from '../ApiReady';
import {
  EXPERIMENTAL_ITEMS,
  HOME,
  LOGIN,
  MANAGE_ENTITIES,
  type NavItem,
  SIGNED_IN_LINKS,
} from './navItems';

/** One link of a panel, by its text; choosing it closes the panel. */
function PanelLink({ text, to, onChosen }: { text: string; to: string; onChosen(): void }) {
  return (
    <ListItem disablePadding>
      <ListItemButton component={RouterLink} to={to} onClick={onChosen}>
        <ListItemText primary={text} />
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
  const t = useT();
  return (
    <>
      <PanelLink text={t(MANAGE_ENTITIES.label)} to={MANAGE_ENTITIES.to} onChosen={onChosen} />
      {groupByCategory(entities).map(([category, members]) => (
        <PanelGroup key={category} title={category}>
          {members.map((entity) => (
            <PanelLink
              key={entity._id}
              text={entity.name}
              to={`/entities/${entity.name}`}
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
  const t = useT();
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
              <PanelLink key={item.to} text={t(item.label)} to={item.to} onChosen={onClose} />
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
  const t = useT();
  const link = (item: NavItem) => (
    <PanelLink key={item.to} text={t(item.label)} to={item.to} onChosen={onClose} />
  );
  return (
    <Drawer
      id={id}
      anchor="right"
      open={open}
      onClose={onClose}
      // The panel is a dialog (MUI): it needs a name as much as the navigation in it.
      slotProps={{ paper: { 'aria-label': t('shell.menu') } }}
    >
      <Box component="nav" aria-label={t('shell.mainMenu')} sx={{ width: 280, maxWidth: '85vw' }}>
        <List>
          {link(HOME)}
          {isAuthenticated ? (
            <>
              {link(SIGNED_IN_LINKS.roles)}
              {link(SIGNED_IN_LINKS.users)}
              <PanelGroup title={t('shell.entities')}>
                <ApiReady>
                  <EntityLinks onChosen={onClose} />
                </ApiReady>
              </PanelGroup>
              <PanelGroup title={t('shell.experimental')}>
                {EXPERIMENTAL_ITEMS.map(link)}
              </PanelGroup>
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
                  <ListItemText primary={t('shell.logout')} />
                </ListItemButton>
              </ListItem>
            </>
          ) : (
            link(LOGIN)
          )}
        </List>
      </Box>
    </Drawer>
  );
}
