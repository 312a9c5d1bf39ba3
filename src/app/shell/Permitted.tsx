import type { ReactNode } from 'react';
import { useCan } from '@/auth/useCan';
import { ApiReady } from '../ApiReady';

function Gate({ verb, path, children }: { verb: string; path: string; children: ReactNode }) {
  return useCan(verb, path) ? children : null;
}

/**
 * `children`, once the permissions call says the user may call `verb` `path`. The bar loads
 * it lazily: the first page does without the API slice it needs.
 */
export function Permitted(props: { verb: string; path: string; children: ReactNode }) {
  return (
    <ApiReady>
      <Gate {...props} />
    </ApiReady>
  );
}
