import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  FormLabel,
  LinearProgress,
  MenuItem,
  Radio,
  RadioGroup,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useEffect, useId, useRef } from 'react';
import type { ImportMode, ImportReport } from '@common/schemas/imports';
import {
  type CsvImport,
  type ImportField,
  type ImportTarget,
  useCsvImport,
} from '@/hooks/useCsvImport';

/** How many of a report's problems the dialog lists (the downloaded report has them all). */
const PROBLEMS_SHOWN = 50;

const count = (n: number) => n.toLocaleString();
const rowsOf = (n: number) => `${count(n)} ${n === 1 ? 'row' : 'rows'}`;

/** A report's sentence: what a dry run would do, or what the import did. */
function summaryOf(report: ImportReport): string {
  const { rows, created, updated, refused } = report;
  if (report.dryRun)
    return `Checked ${rowsOf(rows)}: ${count(created)} would be added, ${count(updated)} changed, ${count(refused)} refused.`;
  if (!report.committed)
    return `Nothing was imported: ${count(refused)} of ${rowsOf(rows)} refused.`;
  return `Imported ${count(rows - refused)} of ${rowsOf(rows)}: ${count(created)} added, ${count(updated)} changed, ${count(refused)} refused.`;
}

/** The report's problems as a CSV file the browser saves (built here: it is small). */
function downloadReport(report: ImportReport, what: string) {
  const field = (text: string) =>
    /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  const lines = [
    'line,field,message',
    ...report.problems.map((p) => [String(p.line), p.field, p.message].map(field).join(',')),
  ];
  const url = URL.createObjectURL(new Blob([`${lines.join('\r\n')}\r\n`], { type: 'text/csv' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `${what.replaceAll(' ', '-')}-import-report.csv`;
  link.click();
  URL.revokeObjectURL(url);
}

function Mapping({ fields, importing }: { fields: ImportField[]; importing: CsvImport }) {
  return (
    // Fixed layout: on a phone the choices shrink to the dialog (their text cut short),
    // rather than widen it past the screen.
    <Table size="small" aria-label="Columns of the file" sx={{ tableLayout: 'fixed' }}>
      <TableHead>
        <TableRow>
          <TableCell sx={{ width: '40%' }}>Column of the file</TableCell>
          <TableCell>Imported as</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {importing.headings.map((heading, index) => (
          <TableRow key={index}>
            <TableCell sx={{ overflowWrap: 'anywhere' }}>
              {heading || `(column ${index + 1})`}
            </TableCell>
            <TableCell>
              <TextField
                select
                size="small"
                fullWidth
                value={importing.columns[index] ?? ''}
                onChange={(event) => importing.map(index, event.target.value)}
                slotProps={{
                  htmlInput: { 'aria-label': `Field for the column ${heading}` },
                  // "Skip this column" shows as the choice it is, not as an empty box.
                  select: { displayEmpty: true },
                }}
              >
                <MenuItem value="">Skip this column</MenuItem>
                <MenuItem value="_id">Id (changes the one it names)</MenuItem>
                {fields.map((field) => (
                  <MenuItem key={field.name} value={field.name}>
                    {field.label || field.name}
                  </MenuItem>
                ))}
              </TextField>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function Report({ report, target }: { report: ImportReport; target: ImportTarget }) {
  // The report comes below the mapping: brought into view (a long mapping hides it).
  const shown = useRef<HTMLDivElement>(null);
  useEffect(() => {
    shown.current?.scrollIntoView?.({ block: 'nearest' });
  }, [report]);
  const labelOf = (name: string) => target.fields.find((f) => f.name === name)?.label || name;
  return (
    <Stack spacing={1} ref={shown}>
      <Alert severity={report.refused > 0 ? 'warning' : 'success'}>{summaryOf(report)}</Alert>
      {report.problems.length > 0 && (
        <>
          <Table size="small" aria-label="Refused rows">
            <TableHead>
              <TableRow>
                <TableCell>Line</TableCell>
                <TableCell>Field</TableCell>
                <TableCell>Why</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {report.problems.slice(0, PROBLEMS_SHOWN).map((problem, index) => (
                <TableRow key={index}>
                  <TableCell>{problem.line}</TableCell>
                  <TableCell>{labelOf(problem.field)}</TableCell>
                  <TableCell>{problem.message}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {(report.problems.length > PROBLEMS_SHOWN || report.problemsTruncated) && (
            <Typography variant="body2" color="text.secondary">
              The first {count(Math.min(PROBLEMS_SHOWN, report.problems.length))} are shown; the
              report has {report.problemsTruncated ? 'the first ' : ''}
              {count(report.problems.length)}.
            </Typography>
          )}
          <Box>
            <Button onClick={() => downloadReport(report, target.what)}>Download the report</Button>
          </Box>
        </>
      )}
    </Stack>
  );
}

/**
 * Import from a CSV file (records, users): choose it, say what each of its columns is, check it (a
 * dry run: every row checked, nothing written), then import it, all or nothing or the
 * valid rows only. The rows read show while it runs; the report, with the rows refused
 * and why, after.
 */
export function ImportDialog({
  target,
  explanation,
  onClose,
}: {
  target: ImportTarget;
  /** What the file holds, in a sentence or two. */
  explanation: string;
  onClose(): void;
}) {
  const importing = useCsvImport(target);
  const titleId = useId();
  const modeId = useId();
  const { running, report } = importing;
  const busy = running !== undefined;
  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="md"
    >
      <DialogTitle id={titleId}>Import {target.what}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Typography variant="body2">{explanation}</Typography>
          <input
            type="file"
            accept=".csv,text/csv"
            aria-label="CSV file"
            disabled={busy}
            onChange={(event) => void importing.choose(event.target.files?.[0])}
          />
          {importing.file && <Mapping fields={target.fields} importing={importing} />}
          {importing.file && (
            <Box>
              <FormLabel id={modeId}>If some rows are refused</FormLabel>
              <RadioGroup
                aria-labelledby={modeId}
                value={importing.mode}
                onChange={(event) => importing.setMode(event.target.value as ImportMode)}
              >
                <FormControlLabel value="all" control={<Radio />} label="Import nothing" />
                <FormControlLabel value="valid" control={<Radio />} label="Import the valid rows" />
              </RadioGroup>
            </Box>
          )}
          {running && (
            <Box
              role="status"
              ref={(box: HTMLDivElement | null) => {
                box?.scrollIntoView?.({ block: 'nearest' });
              }}
            >
              <LinearProgress />
              <Typography variant="body2" sx={{ mt: 1 }}>
                {running.dryRun ? 'Checking' : 'Importing'}: {count(running.rows)} rows read…
              </Typography>
            </Box>
          )}
          {importing.failure && <Alert severity="error">{importing.failure}</Alert>}
          {report && <Report report={report} target={target} />}
        </Stack>
      </DialogContent>
      <DialogActions>
        {busy ? (
          <Button onClick={importing.stop}>Stop</Button>
        ) : (
          <Button onClick={onClose}>{report?.committed ? 'Close' : 'Cancel'}</Button>
        )}
        <Button
          onClick={() => void importing.check()}
          disabled={busy || !importing.file || !importing.mapsSomething}
        >
          Check
        </Button>
        <Button
          variant="contained"
          onClick={() => void importing.start()}
          disabled={busy || !importing.file || !importing.mapsSomething || report?.committed}
        >
          Import
        </Button>
      </DialogActions>
    </Dialog>
  );
}
