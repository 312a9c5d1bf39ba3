import type { ReactNode } from 'react';
import type { ApiPathOf, ApiVerb } from '@common/apiRoutes';
import { useCan } from '@/auth/useCan';
import { ApiReady } from '../ApiReady';

interface PermittedProps<V extends ApiVerb> {
  verb: V;
  /** A path the routes table has a `verb` route for. */
  path: ApiPathOf<V>;
  children: ReactNode;
}

function Gate<V extends ApiVerb>({ verb, path, children }: PermittedProps<V>) {
  return useCan(verb, path) ? children : null;
}

/**
 * `children`, once the permissions call says the user may call `verb` `path`. The bar loads
 * it lazily: the first page does without the API slice it needs.
 */
export function Permitted<V extends ApiVerb>(props: PermittedProps<V>) {
  return (
    <ApiReady>
      <Gate {...props} />
    </ApiReady>
  );
}
