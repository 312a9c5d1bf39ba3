import { Button, Menu, MenuItem } from '@mui/material';
import { type ReactNode, useId, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';

export interface NavMenuItem {
  label: ReactNode;
  to: string;
  key: string;
}

/** A navigation dropdown: a button that opens a menu of links. */
export function NavMenu({ label, items }: { label: string; items: NavMenuItem[] }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
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
        {items.map((item) => (
          <MenuItem
            key={item.key}
            component={RouterLink}
            to={item.to}
            onClick={() => setAnchor(null)}
          >
            {item.label}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
