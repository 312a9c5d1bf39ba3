import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { type ImportLine, type ImportReport, importLineSchema } from '@common/schemas/imports';
import { API_HOST } from './apiHost';
import { t } from '@/i18n/useT';

/**
 * Posts a CSV file to an import (`path` with its query) and reads the answer's lines as
 * they come: `onProgress` hears the rows read so far; resolves with the report. A refusal
 * rejects with the API's error, as the base query gives one (`{ status, data }`), so the
 * shared error helpers read it. Not through the base query: it would read the whole answer
 * at once, and the progress is in it.
 */
export async function importThrough(
  path: string,
  file: Blob,
  accessToken: string | null,
  signal: AbortSignal,
  onProgress: (rows: number) => void,
): Promise<ImportReport> {
  const answer = await fetch(`${API_HOST}${path}`, {
    method: 'POST',
    // Stopped, the connection closes: the server undoes the import.
    signal,
    headers: {
      'content-type': 'text/csv',
      ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}),
    },
    body: file,
    credentials: 'include',
  }).catch((error: unknown) => {
    if (signal.aborted) throw error;
    // As the base query says it: the server was not reached.
    throw { status: 'FETCH_ERROR', error: String(error) } satisfies FetchBaseQueryError;
  });
  if (!answer.ok || !answer.body) {
    const data: unknown = await answer.json().catch(() => undefined);
    throw { status: answer.status, data } satisfies FetchBaseQueryError;
  }
  const reader = answer.body.pipeThrough(new TextDecoderStream()).getReader();
  let pending = '';
  for (;;) {
    const { value, done } = await reader.read().catch((error: unknown) => {
      if (signal.aborted) throw error;
      throw cutShort();
    });
    pending += value ?? '';
    const lines = pending.split('\n');
    pending = done ? '' : lines.pop()!;
    for (const text of lines.filter(Boolean)) {
      const line: ImportLine = importLineSchema.parse(JSON.parse(text));
      if (line.type === 'progress') onProgress(line.rows);
      else if (line.type === 'report') return line.report;
      else throw { status: line.error.statusCode, data: line.error } satisfies FetchBaseQueryError;
    }
    if (done) break;
  }
  throw cutShort();
}

/** The answer ended (or broke) before its report: the import may still finish. */
const cutShort = (): FetchBaseQueryError => ({
  status: 'CUSTOM_ERROR',
  error: t('common.importCut'),
});
