import { Box, Paper, Popper } from '@mui/material';
import { type ReactNode, useId, useState } from 'react';

/**
 * The attributes of a cell editor's input: named after its column, and, while a message
 * about its value is shown (`describedBy`, from CellMessage), invalid and described by it.
 */
export const describedInputProps = (label: string | undefined, describedBy?: string) => ({
  'aria-label': label,
  'aria-invalid': describedBy ? true : undefined,
  'aria-describedby': describedBy,
});

/**
 * A cell's editor with the message of its last refused save under it (a required value left
 * empty, a value of the wrong kind), until its value changes. The message floats over the
 * row below (a grid cell clips what overflows it); `children` gets the message's id for
 * `aria-describedby`, or undefined while none is shown.
 */
export function CellMessage({
  message,
  value,
  children,
}: {
  /** The message, and which refusal it came from (the same words may come again). */
  message?: { text: string; attempt: number };
  /** The cell's value: a new value hides the message. */
  value: unknown;
  children: (describedBy: string | undefined) => ReactNode;
}) {
  const id = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // The value the message is about: the one the cell held when the message came.
  const [about, setAbout] = useState({ attempt: message?.attempt, value });
  if (about.attempt !== message?.attempt) setAbout({ attempt: message?.attempt, value });
  const shown = message !== undefined && Object.is(about.value, value);
  return (
    <Box ref={setAnchor} sx={{ width: '100%', height: '100%', display: 'flex' }}>
      {children(shown ? id : undefined)}
      <Popper
        open={shown && anchor !== null}
        anchorEl={anchor}
        placement="bottom-start"
        sx={{
          zIndex: (theme) => theme.zIndex.tooltip,
          // Its cell scrolled out of the grid's view: the message goes with it.
          '&[data-popper-reference-hidden]': { visibility: 'hidden' },
        }}
      >
        <Paper
          id={id}
          elevation={3}
          sx={{ px: 1, py: 0.5, color: 'error.main', typography: 'caption', maxWidth: 320 }}
        >
          {message?.text}
        </Paper>
      </Popper>
    </Box>
  );
}
