import { useEffect, useRef, useState } from 'react';
import { messages } from '@common/messages';
import type { ImportMode, ImportReport } from '@common/schemas/imports';
import { errorMessage, reportError } from '@/api/errors';
import { importThrough } from '@/api/imports';
import { firstRecordOf } from '@/lib/csv';
import { selectAccessToken } from '@/auth/auth.slice';
import { useAppSelector } from '@/lib/store';
import { t } from '@/i18n/useT';

/** A field a file's column can be imported as. */
export interface ImportField {
  name: string;
  label: string;
}

/** What an import is of: its route, its fields, and what to do once it wrote. */
export interface ImportTarget {
  /** The import's route, e.g. `/api/users/import`. */
  path: string;
  /**
   * What it imports, in the plural, for the messages, in the language in effect ("Flask
   * records", "les fiches Flask").
   */
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
  const field = fields.find(
    (f) => f.name.toLowerCase() === wanted || (f.label && f.label.toLowerCase() === wanted),
  );
  // `_id`, or the export's `ID` heading (unless a field is named so): the same as the server.
  if (!field && (wanted === '_id' || wanted === 'id')) return '_id';
  return field?.name ?? '';
};

/**
 * An import from a CSV file (ra-core style: `ImportDialog` only renders this): the file
 * and its headings, each heading's field (matched by name or label, changeable), a dry run
 * (`check`), then the import in the chosen mode, with the rows read so far while either
 * runs, and the last report.
 */
export function useCsvImport(target: ImportTarget) {
  const accessToken = useAppSelector(selectAccessToken);
  const [file, setFile] = useState<File>();
  const [headings, setHeadings] = useState<string[]>([]);
  const [columns, setColumns] = useState<string[]>([]);
  const [mode, setMode] = useState<ImportMode>('all');
  const [running, setRunning] = useState<{ dryRun: boolean; rows: number }>();
  const [report, setReport] = useState<ImportReport>();
  const [failure, setFailure] = useState<string>();
  const stopping = useRef<AbortController>(undefined);
  // Leaving the dialog (or the page) stops an import that runs: the server then undoes it.
  useEffect(
    () => () => {
      stopping.current?.abort();
    },
    [],
  );

  async function choose(chosen: File | undefined) {
    setReport(undefined);
    setFailure(undefined);
    const found = chosen ? firstRecordOf(await chosen.slice(0, HEADINGS_BYTES).text()) : [];
    // A file without headings (empty, or not text) has nothing to map: it is not taken.
    const usable = found.some((heading) => heading.trim() !== '');
    if (chosen && !usable) setFailure(t('common.importNoHeadings'));
    setFile(usable ? chosen : undefined);
    setHeadings(usable ? found : []);
    setColumns(usable ? found.map((heading) => matchOf(target.fields, heading)) : []);
  }

  async function run(dryRun: boolean) {
    if (!file) return;
    setFailure(undefined);
    setReport(undefined);
    setRunning({ dryRun, rows: 0 });
    const query = new URLSearchParams({ dryRun: String(dryRun), mode, columns: columns.join(',') });
    const path = `${target.path}?${query}`;
    const controller = new AbortController();
    stopping.current = controller;
    try {
      const done = await importThrough(path, file, accessToken, controller.signal, (rows) =>
        setRunning({ dryRun, rows }),
      );
      setReport(done);
      // The dialog's report says how it went (a toast would cover the dialog's buttons).
      if (done.committed) target.onImported();
    } catch (error) {
      if (controller.signal.aborted) {
        setFailure(t('import.stopped'));
        return;
      }
      reportError(messages.client.importContext(target.what), error);
      setFailure(errorMessage(error));
    } finally {
      stopping.current = undefined;
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
    /** Stops the check or import that runs (the server undoes what it did). */
    stop: () => stopping.current?.abort(),
    running,
    report,
    failure,
    /** Whether some column is imported (else there is nothing to send). */
    mapsSomething: columns.some(Boolean),
  };
}

export type CsvImport = ReturnType<typeof useCsvImport>;
