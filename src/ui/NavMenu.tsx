import { Button, ListSubheader, Menu, MenuItem } from '@mui/material';
import { type ReactNode, useId, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';

export interface NavMenuItem {
  label: ReactNode;
  to: string;
  key: string;
}

/** A navigation dropdown: a button that opens a menu of links, optionally in titled groups. */
export function NavMenu({
  label,
  items,
  groups = [],
}: {
  label: string;
  items: NavMenuItem[];
  groups?: [string, NavMenuItem[]][];
}) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const link = (item: NavMenuItem) => (
    <MenuItem key={item.key} component={RouterLink} to={item.to} onClick={() => setAnchor(null)}>
      {item.label}
    </MenuItem>
  );
  return (
    <>
      <Button
        color="inherit"
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={Boolean(anchor)}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        {label}
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {items.map(link)}
        {groups.flatMap(([title, members]) => [
          <ListSubheader key={`group-${title}`}>{title}</ListSubheader>,
          ...members.map(link),
        ])}
      </Menu>
    </>
  );
}
