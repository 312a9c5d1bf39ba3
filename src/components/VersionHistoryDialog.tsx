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
import { useId, useState } from 'react';
import type { Version, VersionChange } from '@common/schemas/versions';
import { compareValues, comparedValues } from '@common/versionChanges';
import { displayValue, NO_CHANGES, versionFields, versionValue } from '@/lib/versions';

interface VersionHistoryDialogProps {
  title: string;
  versions: Version[] | undefined;
  isLoading: boolean;
  failed: boolean;
  onClose(): void;
  /** Makes a version current again; absent when the user may not restore. */
  onRestore?(version: Version): Promise<unknown>;
}

/** One field's change: old → new, or added, or removed. */
function ChangeList({ changes, label }: { changes: VersionChange[]; label: string }) {
  if (changes.length === 0) return <Typography variant="body2">{NO_CHANGES}</Typography>;
  return (
    <Box component="ul" aria-label={label} sx={{ m: 0, pl: 2.5 }}>
      {changes.map(({ field, from, to }) => (
        <Typography component="li" variant="body2" key={field}>
          <b>{field}</b>:{' '}
          {from === null ? (
            <>added {displayValue(to)}</>
          ) : to === null ? (
            <>removed {displayValue(from)}</>
          ) : (
            <>
              <del>{displayValue(from)}</del> → {displayValue(to)}
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
 * its snapshot; each earlier version can be restored.
 */
export function VersionHistoryDialog({
  title,
  versions = [],
  isLoading,
  failed,
  onClose,
  onRestore,
}: VersionHistoryDialogProps) {
  const titleId = useId();
  const [againstCurrent, setAgainstCurrent] = useState(false);
  const [restoring, setRestoring] = useState<string>();
  const fields = versionFields(versions);
  const latest = versions[0];
  // What is current: the latest version's values, or nothing once the item is deleted.
  const current = latest && latest.action !== 'delete' ? comparedValues(latest.document) : {};

  async function restore(version: Version) {
    setRestoring(version._id);
    try {
      await onRestore?.(version);
    } finally {
      setRestoring(undefined);
    }
  }

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{title}</DialogTitle>
      {/* Long histories scroll: focusable, so the keyboard can scroll them too. */}
      <DialogContent tabIndex={0}>
        {isLoading && <LinearProgress aria-label="Loading versions" />}
        {failed && <Alert severity="error">The versions could not be loaded.</Alert>}
        {versions.length > 1 && (
          <FormControlLabel
            control={
              <Switch
                checked={againstCurrent}
                onChange={(event) => setAgainstCurrent(event.target.checked)}
              />
            }
            label="Compare with the current version"
          />
        )}
        <List aria-label="Versions">
          {versions.map((version, index) => (
            <ListItem key={version._id} divider sx={{ display: 'block' }}>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                <Typography variant="subtitle2" component="h3">
                  {version.updatedBy} · {new Date(version.versionDate).toLocaleString()}
                </Typography>
                <Chip size="small" label={version.action} />
              </Stack>
              <ChangeList
                label={againstCurrent ? 'Differences from the current version' : 'Changes'}
                changes={
                  againstCurrent
                    ? compareValues(
                        version.action === 'delete' ? {} : comparedValues(version.document),
                        current,
                      )
                    : version.changes
                }
              />
              <Table size="small" aria-label="Snapshot">
                <TableBody>
                  {fields.map((field) => (
                    <TableRow key={field}>
                      <TableCell component="th" scope="row" sx={{ width: '35%' }}>
                        {field}
                      </TableCell>
                      <TableCell>{versionValue(version, field)}</TableCell>
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
                  aria-label={`Restore the version of ${new Date(version.versionDate).toLocaleString()}`}
                >
                  Restore this version
                </Button>
              )}
            </ListItem>
          ))}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
