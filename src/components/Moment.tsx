import { formatDateTime, formatMoment, formatUtc } from '@/i18n/format';

/**
 * A moment as people read it: relative within a week (`5 minutes ago`), else its date and
 * time, with the local date and time and the exact UTC moment on hover.
 */
export function Moment({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={`${formatDateTime(iso)} (${formatUtc(iso)})`}>
      {formatMoment(iso)}
    </time>
  );
}
