import { Alert } from '@mui/material';
import { useCallback, useState } from 'react';
import type { ErrorCode } from '@common/errorCodes';
import { errorCode, errorMessage } from '@/api/errors';

/** Refusals whose message states a rule of the data, not a fault. */
const RULE_CODES = new Set<ErrorCode>(['LAST_ADMIN', 'ADMIN_PROTECTED']);

/**
 * A refusal that states a rule (at least one admin must stay, the admin user and role are
 * protected) stays in the page after its 2 s toast has gone, until closed or retried.
 * @returns `explain(error)` for a failed change, `clear()` before the next try, and the
 * `alert` to render (null when there is nothing to say).
 */
export function useRuleRefusal() {
  const [refusal, setRefusal] = useState<string>();
  const explain = useCallback((error: unknown) => {
    const code = errorCode(error);
    if (code && RULE_CODES.has(code)) setRefusal(errorMessage(error));
  }, []);
  const clear = useCallback(() => setRefusal(undefined), []);
  const alert = refusal ? (
    <Alert severity="warning" sx={{ mb: 2 }} onClose={clear}>
      {refusal}
    </Alert>
  ) : null;
  return { explain, clear, alert };
}
