import { lazy, Suspense, useState } from 'react';
import { useAppSelector } from '@/lib/store';
import { loadChunk } from '@/lib/loadChunk';
import { selectToasts } from './ui.slice';

const ToastHost = lazy(async () => ({
  default: (await loadChunk(() => import('./ToastHost'))).ToastHost,
}));

/**
 * The toasts, bottom right. notistack loads with the first toast (most first visits show
 * none), and stays for the next ones.
 */
export function Toasts() {
  const anyToast = useAppSelector((state) => selectToasts(state).length > 0);
  const [needed, setNeeded] = useState(false);
  if (anyToast && !needed) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <ToastHost />
    </Suspense>
  );
}
