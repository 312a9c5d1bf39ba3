import { Fragment, type ReactNode } from 'react';
import type { MessageId, MessageValues } from '@/i18n/i18n';
import { Moment as Time } from '@/components/Moment';
import type { t as translate } from '@/i18n/useT';

/**
 * A moment as people read it (`in 29 days`, `Nov 25, 2026, 10:06 PM`); `never` when there is
 * none (a token that does not expire, a passkey never used).
 */
export function Moment({ iso, never }: { iso: string | null; never: string }) {
  return iso ? <Time iso={iso} /> : never;
}

/** What marks a node's place in a message's text: a character no message holds. */
const MARK = '\u0000';

/**
 * A message whose placeholders `nodes` fills with elements (a `<time>`), each where the
 * language in effect puts it: `Added {added} · last used {used}`.
 */
export function withNodes(
  t: typeof translate,
  id: MessageId,
  values: MessageValues,
  nodes: Record<string, ReactNode>,
): ReactNode {
  const marks = Object.fromEntries(Object.keys(nodes).map((name) => [name, MARK + name + MARK]));
  // Between the marks: text, a node's name, text, a node's name… (odd pieces are names).
  return t(id, { ...values, ...marks })
    .split(MARK)
    .map((piece, index) =>
      index % 2 === 1 ? <Fragment key={index}>{nodes[piece]}</Fragment> : piece,
    );
}
