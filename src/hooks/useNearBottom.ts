import { useEffect } from 'react';
import { INFINITE_SCROLL_THRESHOLD_PX } from '@common/constants';

/**
 * Calls `onNear` while `active` and the window is scrolled within the threshold of the
 * page's bottom: on scroll, on resize, and whenever `content` changes (a page that does not
 * fill the window yet has no scroll to wait for).
 */
export function useNearBottom(onNear: () => void, active: boolean, content: unknown): void {
  useEffect(() => {
    if (!active) return;
    const check = () => {
      const bottom = window.innerHeight + window.scrollY;
      if (bottom >= document.documentElement.scrollHeight - INFINITE_SCROLL_THRESHOLD_PX) onNear();
    };
    check();
    window.addEventListener('scroll', check, { passive: true });
    window.addEventListener('resize', check);
    return () => {
      window.removeEventListener('scroll', check);
      window.removeEventListener('resize', check);
    };
  }, [onNear, active, content]);
}
