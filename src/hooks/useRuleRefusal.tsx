import { Alert, Box } from '@mui/material';
import { useCallback, useState } from 'react';
import type { ErrorCode } from '@common/errorCodes';
import { errorCode, errorMessage, refusedItems } from '@/api/errors';
import { useT } from '@/i18n/useT';

/** Refusals whose message states a rule of the data, not a fault. */
const RULE_CODES = new Set<ErrorCode>(['LAST_ADMIN', 'ADMIN_PROTECTED']);

/**
 * A refusal that states a rule (at least one admin must stay, the admin user and role are
 * protected), or a bulk action's refusal with each item's reason, stays in the page after its
 * 2 s toast has gone, until closed or retried.
 * @returns `explain(error)` for a failed change, `clear()` before the next try, and the
 * `alert` to render (null when there is nothing to say).
 */
export function useRuleRefusal() {
  const t = useT();
  const [refusal, setRefusal] = useState<{
    message: string;
    items: { id: string; name: string; reason: string }[];
  }>();
  /** `nameOf`: how a bulk action's refused item is named in the list of reasons. */
  const explain = useCallback((error: unknown, nameOf: (id: string) => string = (id) => id) => {
    const code = errorCode(error);
    if (code === 'BULK_REFUSED') {
      const items = refusedItems(error).map(({ id, message }) => ({
        id,
        name: nameOf(id),
        reason: message,
      }));
      setRefusal({ message: errorMessage(error), items });
    } else if (code && RULE_CODES.has(code))
      setRefusal({ message: errorMessage(error), items: [] });
  }, []);
  const clear = useCallback(() => setRefusal(undefined), []);
  const alert = refusal ? (
    <Alert severity="warning" sx={{ mb: 2 }} onClose={clear}>
      {refusal.message}
      {refusal.items.length > 0 && (
        <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
          {refusal.items.map((item) => (
            <li key={item.id}>{t('edit.refusedItem', { name: item.name, reason: item.reason })}</li>
          ))}
        </Box>
      )}
    </Alert>
  ) : null;
  return { explain, clear, alert };
}
