import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  List,
  ListItem,
  ListItemText,
  Typography,
} from '@mui/material';
import { useId, useRef, useState } from 'react';
import type { DeletedItem } from '@common/schemas/versions';
import { Moment } from './Moment';
import { useT } from '@/i18n/useT';

interface RecentlyDeletedDialogProps {
  title: string;
  items: DeletedItem[] | undefined;
  isLoading: boolean;
  isError: boolean;
  /** What a reader calls the item: a book's title, an entity's name… */
  nameOf(item: DeletedItem): string;
  onClose(): void;
  /**
   * Brings an item back as it was deleted, resolving to whether it came back (a failure is
   * the caller's to report); absent when the user may not restore.
   */
  onRestore?(item: DeletedItem): Promise<boolean>;
}

/** The items deleted and not brought back since, most recent first, each with Restore. */
export function RecentlyDeletedDialog({
  title,
  items = [],
  isLoading,
  isError,
  nameOf,
  onClose,
  onRestore,
}: RecentlyDeletedDialogProps) {
  const t = useT();
  const titleId = useId();
  const [restoring, setRestoring] = useState<string>();
  // Said in the dialog: a toast outside it is hidden from screen readers while it is open.
  const [restored, setRestored] = useState<string>();
  const status = useRef<HTMLElement>(null);

  async function restore(item: DeletedItem) {
    setRestoring(item._id);
    try {
      if (await onRestore?.(item)) {
        setRestored(nameOf(item));
        // Its Restore button leaves with it: the focus stays in the dialog, on what happened.
        status.current?.focus();
      }
    } finally {
      setRestoring(undefined);
    }
  }

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent tabIndex={0}>
        {isLoading && <LinearProgress aria-label={t('history.loadingDeleted')} />}
        {isError && <Alert severity="error">{t('history.deletedFailed')}</Alert>}
        <Typography
          ref={status}
          role="status"
          tabIndex={-1}
          color="success.main"
          sx={{ fontWeight: 500, outline: 'none' }}
        >
          {restored && t('history.restored', { name: restored })}
        </Typography>
        {!isLoading && !isError && items.length === 0 && (
          <Typography>{t('history.nothingDeleted')}</Typography>
        )}
        <List aria-label={title}>
          {items.map((item) => (
            <ListItem
              key={item.versionId}
              divider
              secondaryAction={
                onRestore && (
                  <Button
                    size="small"
                    disabled={restoring !== undefined}
                    onClick={() => void restore(item)}
                    aria-label={t('history.restoreItem', { name: nameOf(item) })}
                  >
                    {t('common.restore')}
                  </Button>
                )
              }
            >
              <ListItemText
                primary={nameOf(item)}
                secondary={
                  <>
                    {t('history.deletedBy', { by: item.deletedBy })} ·{' '}
                    <Moment iso={item.deletedAt} />
                  </>
                }
                sx={{ pr: onRestore ? 8 : 0, overflowWrap: 'anywhere' }}
              />
            </ListItem>
          ))}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
