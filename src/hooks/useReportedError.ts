import { useEffect } from 'react';
import { reportError } from '@/api/errors';

/**
 * Sends a query's error to the shared handler with its context message (spec section 8),
 * once per error. The toast has already been shown by the base query.
 */
export function useReportedError(context: string, error: unknown): void {
  useEffect(() => {
    if (error) reportError(context, error);
  }, [context, error]);
}
