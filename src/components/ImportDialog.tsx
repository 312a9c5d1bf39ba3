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
import { t as translate, useT } from '@/i18n/useT';
import { localiseServerText } from '@/i18n/serverTexts';
import { screenReaderOnly } from '@/lib/screenReaderOnly';

/** How many of a report's problems the dialog lists (the downloaded report has them all). */
const PROBLEMS_SHOWN = 50;

/** A report's sentence: what a dry run would do, or what the import did. */
function summaryOf(t: typeof translate, report: ImportReport): string {
  const { rows, created, updated, refused } = report;
  if (report.dryRun) return t('import.dryRunSummary', { rows, created, updated, refused });
  if (!report.committed) return t('import.nothingImported', { rows, refused });
  return t('import.importedSummary', {
    imported: rows - refused,
    rows,
    created,
    updated,
    refused,
  });
}

/** The report's problems as a CSV file the browser saves (built here: it is small). */
function downloadReport(report: ImportReport, what: string) {
  const field = (text: string) =>
    /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  const headings = [
    translate('import.reportLine'),
    translate('import.reportField'),
    translate('import.reportMessage'),
  ];
  const lines = [
    headings.map(field).join(','),
    ...report.problems.map((p) =>
      [String(p.line), p.field, localiseServerText(p.message)].map(field).join(','),
    ),
  ];
  const url = URL.createObjectURL(new Blob([`${lines.join('\r\n')}\r\n`], { type: 'text/csv' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `${translate('import.reportFile', { what }).replaceAll(' ', '-')}.csv`;
  link.click();
  URL.revokeObjectURL(url);
}

function Mapping({ fields, importing }: { fields: ImportField[]; importing: CsvImport }) {
  const t = useT();
  return (
    // Fixed layout: on a phone the choices shrink to the dialog (their text cut short),
    // rather than widen it past the screen.
    <Table size="small" aria-label={t('import.columnsOfFile')} sx={{ tableLayout: 'fixed' }}>
      <TableHead>
        <TableRow>
          <TableCell sx={{ width: '40%' }}>{t('import.columnOfFile')}</TableCell>
          <TableCell>{t('import.importedAs')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {importing.headings.map((heading, index) => (
          <TableRow key={index}>
            <TableCell sx={{ overflowWrap: 'anywhere' }}>
              {heading || t('import.unnamedColumn', { number: index + 1 })}
            </TableCell>
            <TableCell>
              <TextField
                select
                size="small"
                fullWidth
                value={importing.columns[index] ?? ''}
                onChange={(event) => importing.map(index, event.target.value)}
                slotProps={{
                  htmlInput: { 'aria-label': t('import.fieldFor', { heading }) },
                  // "Skip this column" shows as the choice it is, not as an empty box.
                  select: { displayEmpty: true },
                }}
              >
                <MenuItem value="">{t('import.skip')}</MenuItem>
                <MenuItem value="_id">{t('import.id')}</MenuItem>
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
  const t = useT();
  // The report comes below the mapping: brought into view (a long mapping hides it).
  const shown = useRef<HTMLDivElement>(null);
  useEffect(() => {
    shown.current?.scrollIntoView?.({ block: 'nearest' });
  }, [report]);
  const labelOf = (name: string) => target.fields.find((f) => f.name === name)?.label || name;
  return (
    <Stack spacing={1} ref={shown}>
      <Alert severity={report.refused > 0 ? 'warning' : 'success'}>{summaryOf(t, report)}</Alert>
      {report.problems.length > 0 && (
        <>
          <Table size="small" aria-label={t('import.refusedRows')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('import.line')}</TableCell>
                <TableCell>{t('import.field')}</TableCell>
                <TableCell>{t('import.why')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {report.problems.slice(0, PROBLEMS_SHOWN).map((problem, index) => (
                <TableRow key={index}>
                  <TableCell>{problem.line}</TableCell>
                  <TableCell>{labelOf(problem.field)}</TableCell>
                  <TableCell>{localiseServerText(problem.message)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {(report.problems.length > PROBLEMS_SHOWN || report.problemsTruncated) && (
            <Typography variant="body2" color="text.secondary">
              {t(
                report.problemsTruncated ? 'import.problemsShownTruncated' : 'import.problemsShown',
                {
                  shown: Math.min(PROBLEMS_SHOWN, report.problems.length),
                  total: report.problems.length,
                },
              )}
            </Typography>
          )}
          <Box>
            <Button onClick={() => downloadReport(report, target.what)}>
              {t('import.download')}
            </Button>
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
  /** What the file holds, in a sentence or two (in the language in effect). */
  explanation: string;
  onClose(): void;
}) {
  const t = useT();
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
      <DialogTitle id={titleId}>{t('import.title', { what: target.what })}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Typography variant="body2">{explanation}</Typography>
          {/* The browser's own file button speaks the browser's language: this one the page's.
              The input inside stays the one keyboards and screen readers reach. */}
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
            <Button
              component="label"
              // A label, not a second control: the input inside is the one focused.
              role={undefined}
              tabIndex={-1}
              variant="outlined"
              disabled={busy}
              sx={{ flexShrink: 0, '&:focus-within': { outline: 2, outlineOffset: 2 } }}
            >
              {t('import.chooseFile')}
              <input
                type="file"
                accept=".csv,text/csv"
                aria-label={t('import.file')}
                disabled={busy}
                style={screenReaderOnly}
                onChange={(event) => void importing.choose(event.target.files?.[0])}
              />
            </Button>
            <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
              {importing.file?.name ?? t('import.noFile')}
            </Typography>
          </Stack>
          {importing.file && <Mapping fields={target.fields} importing={importing} />}
          {importing.file && (
            <Box>
              <FormLabel id={modeId}>{t('import.ifRefused')}</FormLabel>
              <RadioGroup
                aria-labelledby={modeId}
                value={importing.mode}
                onChange={(event) => importing.setMode(event.target.value as ImportMode)}
              >
                <FormControlLabel value="all" control={<Radio />} label={t('import.modeAll')} />
                <FormControlLabel value="valid" control={<Radio />} label={t('import.modeValid')} />
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
                {t(running.dryRun ? 'import.checking' : 'import.importing', { rows: running.rows })}
              </Typography>
            </Box>
          )}
          {importing.failure && <Alert severity="error">{importing.failure}</Alert>}
          {report && <Report report={report} target={target} />}
        </Stack>
      </DialogContent>
      <DialogActions>
        {busy ? (
          <Button onClick={importing.stop}>{t('import.stop')}</Button>
        ) : (
          <Button onClick={onClose}>
            {t(report?.committed ? 'common.close' : 'common.cancel')}
          </Button>
        )}
        <Button
          onClick={() => void importing.check()}
          disabled={busy || !importing.file || !importing.mapsSomething}
        >
          {t('import.check')}
        </Button>
        <Button
          variant="contained"
          onClick={() => void importing.start()}
          disabled={busy || !importing.file || !importing.mapsSomething || report?.committed}
        >
          {t('import.start')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
