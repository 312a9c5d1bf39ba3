import { Box, Typography } from '@mui/material';
import { useT } from '@/i18n/useT';
import { editingSentence } from '@/lib/editing';

interface EditorsProps {
  /** Who else is editing each item, by id (`useVersionedEdit`'s `editors`). */
  editors: Record<string, string[]>;
  /** Item `id` as a sentence names it, in the language in effect: `«Car»`, `this entity`. */
  nameOf(id: string): string;
  /** Only these items (a form: its one item); by default every item someone edits. */
  ids?: string[];
}

/** Who else is editing what, said politely to screen readers as it changes. */
export function Editors({ editors, nameOf, ids }: EditorsProps) {
  useT(); // the sentences are said again in another language
  const edited = (ids ?? Object.keys(editors)).filter((id) => (editors[id] ?? []).length > 0);
  if (edited.length === 0) return null;
  return (
    <Box role="status" sx={{ mb: 1 }}>
      {edited.map((id) => (
        <Typography key={id} variant="body2" color="text.secondary">
          {editingSentence(editors[id]!, nameOf(id))}
        </Typography>
      ))}
    </Box>
  );
}
