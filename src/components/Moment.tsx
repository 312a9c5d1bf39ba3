import { useSyncExternalStore } from 'react';
import { formatDateTime, formatMoment, formatUtc } from '@/i18n/format';

/** How often the moments on screen are said again (`5 minutes ago` becomes `6 minutes ago`). */
const TICK_MS = 30_000;

/** Now, to the tick: the same within a tick, however often a render asks. */
const nowToTheTick = () => Math.floor(Date.now() / TICK_MS) * TICK_MS;

function everyTick(changed: () => void) {
  const timer = setInterval(changed, TICK_MS);
  return () => clearInterval(timer);
}

/**
 * A moment as people read it: relative within a week (`5 minutes ago`), else its date and
 * time, with the local date and time and the exact UTC moment on hover; said again as time
 * passes.
 */
export function Moment({ iso }: { iso: string }) {
  const now = useSyncExternalStore(everyTick, nowToTheTick);
  return (
    <time dateTime={iso} title={`${formatDateTime(iso)} (${formatUtc(iso)})`}>
      {formatMoment(iso, now)}
    </time>
  );
}
