import { useCallback, useState } from 'react';
import { reportError } from '@/api/errors';

/**
 * An action that runs only once the person confirms it (ConfirmDialog): `ask(item)` opens
 * the dialog, `dialog` wires it. A failure goes to the shared error handler with
 * `errorContext`; the toast has already been shown by the base query.
 */
export function useConfirmedAction<T>(action: (item: T) => Promise<void>, errorContext: string) {
  const [pending, setPending] = useState<T>();
  const ask = useCallback((item: T) => setPending(() => item), []);
  return {
    pending,
    ask,
    dialog: {
      open: pending !== undefined,
      onCancel: () => setPending(undefined),
      onConfirm: async () => {
        const item = pending as T;
        setPending(undefined);
        try {
          await action(item);
        } catch (error) {
          reportError(errorContext, error);
        }
      },
    },
  };
}
