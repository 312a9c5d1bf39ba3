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
  Table,
  TableBody,
  TableCell,
  TableRow,
  Typography,
} from '@mui/material';
import { useId } from 'react';
import type { Version } from '@common/schemas/versions';
import { versionFields, versionValue } from '@/lib/versions';

interface VersionHistoryDialogProps {
  title: string;
  versions: Version[] | undefined;
  isLoading: boolean;
  failed: boolean;
  onClose(): void;
}

/** A document's version history: who changed it, when, and the snapshot, newest first. */
export function VersionHistoryDialog({
  title,
  versions = [],
  isLoading,
  failed,
  onClose,
}: VersionHistoryDialogProps) {
  const titleId = useId();
  const fields = versionFields(versions);
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{title}</DialogTitle>
      {/* Long histories scroll: focusable, so the keyboard can scroll them too. */}
      <DialogContent tabIndex={0}>
        {isLoading && <LinearProgress aria-label="Loading versions" />}
        {failed && <Alert severity="error">The versions could not be loaded.</Alert>}
        <List aria-label="Versions">
          {versions.map((version, index) => (
            <ListItem key={`${version.versionDate}-${index}`} divider sx={{ display: 'block' }}>
              <Typography variant="subtitle2" component="h3">
                {version.updatedBy} · {new Date(version.versionDate).toLocaleString()}
              </Typography>
              <Table size="small">
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
