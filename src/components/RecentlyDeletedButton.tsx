import RestoreFromTrashIcon from '@mui/icons-material/RestoreFromTrash';
import { Button } from '@mui/material';
import { type ReactNode, useState } from 'react';

/**
 * "Recently deleted": opens the dialog `dialog` renders (its list is asked for only then);
 * the dialog gives the focus back to the button when it closes.
 */
export function RecentlyDeletedButton({ dialog }: { dialog: (onClose: () => void) => ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button startIcon={<RestoreFromTrashIcon />} onClick={() => setOpen(true)}>
        Recently deleted
      </Button>
      {open && dialog(() => setOpen(false))}
    </>
  );
}
