import {
  Alert,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  LinearProgress,
  List,
  ListItem,
  Stack,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableRow,
  Typography,
} from '@mui/material';
import { useEffect, useId, useRef, useState } from 'react';
import type { Version, VersionChange } from '@common/schemas/versions';
import { compareValues, comparedValues } from '@common/versionChanges';
import {
  type HistoryFields,
  inOrder,
  noChanges,
  type ValueShower,
  valueShower,
  versionFields,
  versionValue,
} from '@/lib/versions';
import { formatDateTime } from '@/i18n/format';
import { useT } from '@/i18n/useT';
import { Moment } from './Moment';

/** A history as an RTK Query infinite query answers it: pages of versions, newest first. */
export interface VersionHistory {
  data?: { pages: Version[][] };
  isLoading: boolean;
  isError: boolean;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage(): unknown;
}

interface VersionHistoryDialogProps {
  title: string;
  history: VersionHistory;
  onClose(): void;
  /** Makes a version current again; absent when the user may not restore. */
  /**
   * Restores `version`; `current` is the version number the history shows as current (none
   * once deleted), which the restore names so that a newer one is a conflict.
   */
  onRestore?(version: Version, current?: number): Promise<unknown>;
  /** How the item's fields read: their labels, types, values shown the item's way. */
  fields?: HistoryFields;
}

/** One field's change: old → new, or added, or removed. */
function ChangeList({
  changes,
  label,
  labelOf,
  show,
}: {
  changes: VersionChange[];
  label: string;
  labelOf(field: string): string;
  show: ValueShower;
}) {
  const t = useT();
  if (changes.length === 0) return <Typography variant="body2">{noChanges()}</Typography>;
  return (
    <Box component="ul" aria-label={label} sx={{ m: 0, pl: 2.5 }}>
      {changes.map(({ field, from, to }) => (
        <Typography component="li" variant="body2" key={field}>
          <b>{t('history.fieldLabel', { field: labelOf(field) })}</b>{' '}
          {from === null ? (
            t('history.added', { value: show(field, to) })
          ) : to === null ? (
            t('history.removed', { value: show(field, from) })
          ) : (
            <>
              <del>{show(field, from)}</del> → {show(field, to)}
            </>
          )}
        </Typography>
      ))}
    </Box>
  );
}

/**
 * A document's version history, newest first: who, when and what made each version, what
 * it changed (against the version before it, or, switched, against the current one), and
 * its snapshot; each earlier version can be restored. Long histories load a page at a time.
 */
export function VersionHistoryDialog({
  title,
  history,
  onClose,
  onRestore,
  fields: reading = {},
}: VersionHistoryDialogProps) {
  const t = useT();
  const titleId = useId();
  const [againstCurrent, setAgainstCurrent] = useState(false);
  const [restoring, setRestoring] = useState<string>();
  const versions = history.data?.pages.flat() ?? [];
  const list = useRef<HTMLUListElement>(null);
  // After "Show older versions", the keyboard moves on to the first of them.
  const [focusFrom, setFocusFrom] = useState<number>();
  useEffect(() => {
    const first = focusFrom === undefined ? undefined : list.current?.children[focusFrom];
    if (first instanceof HTMLElement) {
      first.focus();
      setFocusFrom(undefined);
    }
  }, [focusFrom, versions.length]);
  const fields = versionFields(versions, reading.order);
  const show = valueShower(versions, reading);
  const labelOf = reading.labelOf ?? ((field: string) => field);
  const latest = versions[0];
  // What is current: the latest version's values, or nothing once the item is deleted.
  const current = latest && latest.action !== 'delete' ? comparedValues(latest.document) : {};

  async function restore(version: Version) {
    setRestoring(version._id);
    try {
      const shown = latest?.action === 'delete' ? undefined : latest?.document._version;
      await onRestore?.(version, typeof shown === 'number' ? shown : undefined);
    } finally {
      setRestoring(undefined);
    }
  }

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{title}</DialogTitle>
      {/* Long histories scroll: focusable, so the keyboard can scroll them too. */}
      <DialogContent tabIndex={0}>
        {history.isLoading && <LinearProgress aria-label={t('history.loadingVersions')} />}
        {history.isError && <Alert severity="error">{t('history.versionsFailed')}</Alert>}
        {versions.length > 1 && (
          <FormControlLabel
            control={
              <Switch
                checked={againstCurrent}
                onChange={(event) => setAgainstCurrent(event.target.checked)}
              />
            }
            label={t('history.compareCurrent')}
          />
        )}
        <List aria-label={t('history.versions')} ref={list}>
          {versions.map((version, index) => (
            <ListItem
              key={version._id}
              divider
              tabIndex={-1}
              aria-labelledby={`${titleId}-${version._id}`}
              sx={{ display: 'block' }}
            >
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                <Typography variant="subtitle2" component="h3" id={`${titleId}-${version._id}`}>
                  {version.updatedBy} · <Moment iso={version.versionDate} />
                </Typography>
                <Chip size="small" label={t('history.action', { action: version.action })} />
              </Stack>
              <ChangeList
                label={againstCurrent ? t('history.differences') : t('history.changes')}
                labelOf={labelOf}
                show={show}
                changes={inOrder(
                  againstCurrent
                    ? compareValues(
                        version.action === 'delete' ? {} : comparedValues(version.document),
                        current,
                      )
                    : version.changes,
                  reading.order ?? [],
                  (change) => change.field,
                )}
              />
              <Table size="small" aria-label={t('history.snapshot')}>
                <TableBody>
                  {fields.map((field) => (
                    <TableRow key={field}>
                      <TableCell component="th" scope="row" sx={{ width: '35%' }}>
                        {labelOf(field)}
                      </TableCell>
                      <TableCell>{versionValue(version, field, show)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
              {/* The latest version is what is current, unless it is the delete. */}
              {onRestore && (index > 0 || version.action === 'delete') && (
                <Button
                  size="small"
                  sx={{ mt: 1 }}
                  disabled={restoring !== undefined}
                  onClick={() => void restore(version)}
                  aria-label={t('history.restoreVersionOf', {
                    date: formatDateTime(version.versionDate),
                  })}
                >
                  {t('history.restoreVersion')}
                </Button>
              )}
            </ListItem>
          ))}
        </List>
        {history.hasNextPage && (
          <Button
            disabled={history.isFetchingNextPage}
            onClick={() => {
              setFocusFrom(versions.length);
              void history.fetchNextPage();
            }}
          >
            {t('history.older')}
          </Button>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
