import DownloadIcon from '@mui/icons-material/Download';
import { Button, Menu, MenuItem } from '@mui/material';
import { GRID_CHECKBOX_SELECTION_FIELD, type GridApi } from '@mui/x-data-grid';
import { type RefObject, useId, useState } from 'react';
import { messages } from '@common/messages';
import { EXPORT_FORMATS, type ExportFormat } from '@common/schemas/exports';
import { downloadFrom, useCreateDownloadLinkMutation } from '@/api/downloads';
import { reportError } from '@/api/errors';
import { useAppDispatch } from '@/lib/store';
import { toastQueued } from '@/ui/ui.slice';
import { useT } from '@/i18n/useT';

interface ExportMenuProps {
  /** The list's export route, e.g. `/api/users/export`. */
  path: string;
  /** What the list holds, for the messages, in the language in effect ("users", "les utilisateurs"). */
  what: string;
  /** The list's filter and sort now, in the export's words (empty values are left out). */
  params: Record<string, string | undefined>;
  /** The columns on screen now, in their order, by the export's names. */
  columns?: () => string[];
}

const FORMAT_NAMES: Record<ExportFormat, string> = { csv: 'CSV', json: 'JSON' };

/**
 * Export: the list as it is filtered and sorted, all of it, with the columns on screen, as
 * CSV or JSON. The server streams it in batches; the browser saves it straight to a file
 * through a short-lived download link.
 */
export function ExportMenu({ path, what, params, columns }: ExportMenuProps) {
  const t = useT();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [createLink, { isLoading }] = useCreateDownloadLinkMutation();
  const dispatch = useAppDispatch();
  const menuId = useId();

  async function exportAs(format: ExportFormat) {
    setAnchor(null);
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) if (value) query.set(key, value);
    query.set('format', format);
    const shown = columns?.();
    if (shown?.length) query.set('columns', shown.join(','));
    try {
      const { url } = await createLink(`${path}?${query.toString()}`).unwrap();
      downloadFrom(url);
      dispatch(toastQueued(t('common.exportStarted', { what }), 'info'));
    } catch (error) {
      reportError(messages.client.exportContext(what), error);
    }
  }

  return (
    <>
      <Button
        startIcon={<DownloadIcon />}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        disabled={isLoading}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        {t('export.button')}
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {EXPORT_FORMATS.map((format) => (
          <MenuItem key={format} onClick={() => void exportAs(format)}>
            {FORMAT_NAMES[format]}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}

/**
 * The columns a DataGrid shows now, in order, as an export names them: `nameOf` answers a
 * grid field's export name, or undefined for a column the export does not have (actions).
 */
export const shownColumnsOf =
  (apiRef: RefObject<GridApi | null>, nameOf: (field: string) => string | undefined) => () =>
    (apiRef.current?.getVisibleColumns() ?? []).flatMap((column) => {
      // The selection's checkboxes are the grid's, not a column of the list.
      const name =
        column.field === GRID_CHECKBOX_SELECTION_FIELD ? undefined : nameOf(column.field);
      return name === undefined ? [] : [name];
    });
