import { useMemo } from 'react';
import { useAppSelector } from '@/lib/store';
import { selectLocale } from '@/ui/ui.slice';
import { i18n, type MessageId, type MessageValues } from './i18n';

/** A message's text in the language in effect, for code outside React (a toast, a listener). */
export const t = (id: MessageId, values?: MessageValues): string => i18n._(id, values);

/**
 * `t` for a component: a new function when the language changes, so the component renders
 * again and what it memoised on `t` (a grid's columns) is made again.
 */
export function useT(): typeof t {
  const locale = useAppSelector(selectLocale);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a new `t` for each language
  return useMemo(() => (id, values) => t(id, values), [locale]);
}

/** A delete's question, saying so when its toast will offer Undo. */
export const undoable = (question: string, mayUndo: boolean): string =>
  mayUndo ? t('common.undoable', { question }) : question;
