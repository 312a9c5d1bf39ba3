import { useState } from 'react';
import { messages } from '@common/messages';
import type { Entity } from '@common/schemas/entities';
import type { ImportMode, ImportReport } from '@common/schemas/imports';
import { api } from '@/api/api';
import { useCreateDownloadLinkMutation } from '@/api/downloads';
import { errorMessage, reportError } from '@/api/errors';
import { importThrough } from '@/api/imports';
import { recordListTag } from '@/api/tags';
import { firstRecordOf } from '@/lib/csv';
import { useAppDispatch } from '@/lib/store';
import { toastQueued } from '@/ui/ui.slice';

/** How many bytes of a file are read for its headings. */
const HEADINGS_BYTES = 64 * 1024;

/** What a column of the file is imported as: a field's name, `_id`, or '' (skipped). */
const matchOf = (entity: Entity, heading: string) => {
  const wanted = heading.trim().toLowerCase();
  if (wanted === '_id') return '_id';
  const field = entity.fields.find(
    (f) => f.name.toLowerCase() === wanted || f.label.toLowerCase() === wanted,
  );
  return field?.name ?? '';
};

/**
 * The import of an entity's records from a CSV file (ra-core style: the dialog only
 * renders this): the file and its headings, each heading's field (matched by name or
 * label, changeable), a dry run (`check`), then the import in the chosen mode, with the
 * rows read so far while either runs, and the last report.
 */
export function useRecordImport(entity: Entity) {
  const dispatch = useAppDispatch();
  const [createLink] = useCreateDownloadLinkMutation();
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
    setColumns(found.map((heading) => matchOf(entity, heading)));
  }

  async function run(dryRun: boolean) {
    if (!file) return;
    setFailure(undefined);
    setReport(undefined);
    setRunning({ dryRun, rows: 0 });
    const query = new URLSearchParams({ dryRun: String(dryRun), mode, columns: columns.join(',') });
    const path = `/api/entity-records/${encodeURIComponent(entity.name)}/import?${query}`;
    try {
      const { url } = await createLink(path).unwrap();
      const done = await importThrough(url, file, (rows) => setRunning({ dryRun, rows }));
      setReport(done);
      if (done.committed) {
        dispatch(api.util.invalidateTags([recordListTag(entity.name)]));
        dispatch(toastQueued(messages.records.imported(done.created, done.updated), 'success'));
      }
    } catch (error) {
      reportError(messages.client.importContext(`${entity.name} records`), error);
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

export type RecordImport = ReturnType<typeof useRecordImport>;
