import { useState } from 'react';
import { messages } from '@common/messages';
import type { ImportMode, ImportReport } from '@common/schemas/imports';
import { errorMessage, reportError } from '@/api/errors';
import { importThrough } from '@/api/imports';
import { firstRecordOf } from '@/lib/csv';
import { selectAccessToken } from '@/auth/auth.slice';
import { useAppDispatch, useAppSelector } from '@/lib/store';
import { toastQueued } from '@/ui/ui.slice';

/** A field a file's column can be imported as. */
export interface ImportField {
  name: string;
  label: string;
}

/** What an import is of: its route, its fields, and what to do once it wrote. */
export interface ImportTarget {
  /** The import's route, e.g. `/api/users/import`. */
  path: string;
  /** What it imports, in the plural, for the messages ("Flask records"). */
  what: string;
  fields: ImportField[];
  /** Told once an import was written (to refresh the list). */
  onImported(): void;
}
/** How many bytes of a file are read for its headings. */
const HEADINGS_BYTES = 64 * 1024;

/** What a column of the file is imported as: a field's name, `_id`, or '' (skipped). */
const matchOf = (fields: ImportField[], heading: string) => {
  const wanted = heading.trim().toLowerCase();
  // A column with no heading is no field's (not even one without a label).
  if (wanted === '') return '';
  if (wanted === '_id') return '_id';
  const field = fields.find(
    (f) => f.name.toLowerCase() === wanted || (f.label && f.label.toLowerCase() === wanted),
  );
  return field?.name ?? '';
};

/**
 * An import from a CSV file (ra-core style: `ImportDialog` only renders this): the file
 * and its headings, each heading's field (matched by name or label, changeable), a dry run
 * (`check`), then the import in the chosen mode, with the rows read so far while either
 * runs, and the last report.
 */
export function useCsvImport(target: ImportTarget) {
  const dispatch = useAppDispatch();
  const accessToken = useAppSelector(selectAccessToken);
  const [file, setFile] = useState<File>();
  const [headings, setHeadings] = useState<string[]>([]);
  const [columns, setColumns] = useState<string[]>([]);
  const [mode, setMode] = useState<ImportMode>('all');
  const [running, setRunning] = useState<{ dryRun: boolean; rows: number }>();
  const [report, setReport] = useState<ImportReport>();
  const [failure, setFailure] = useState<string>();

  async function choose(chosen: File | undefined) {
    setReport(undefined);
    setFailure(undefined);
    setFile(chosen);
    if (!chosen) return;
    const found = firstRecordOf(await chosen.slice(0, HEADINGS_BYTES).text());
    setHeadings(found);
    setColumns(found.map((heading) => matchOf(target.fields, heading)));
  }

  async function run(dryRun: boolean) {
    if (!file) return;
    setFailure(undefined);
    setReport(undefined);
    setRunning({ dryRun, rows: 0 });
    const query = new URLSearchParams({ dryRun: String(dryRun), mode, columns: columns.join(',') });
    const path = `${target.path}?${query}`;
    try {
      const done = await importThrough(path, file, accessToken, (rows) =>
        setRunning({ dryRun, rows }),
      );
      setReport(done);
      if (done.committed) {
        target.onImported();
        dispatch(toastQueued(messages.client.imported(done.created, done.updated), 'success'));
      }
    } catch (error) {
      reportError(messages.client.importContext(target.what), error);
      setFailure(errorMessage(error));
    } finally {
      setRunning(undefined);
    }
  }

  return {
    file,
    headings,
    columns,
    /** Maps the file's column `index` to a field (`''`: skipped). */
    map: (index: number, field: string) =>
      setColumns((current) => current.map((name, i) => (i === index ? field : name))),
    mode,
    setMode,
    choose,
    check: () => run(true),
    start: () => run(false),
    running,
    report,
    failure,
    /** Whether some column is imported (else there is nothing to send). */
    mapsSomething: columns.some(Boolean),
  };
}

export type CsvImport = ReturnType<typeof useCsvImport>;
