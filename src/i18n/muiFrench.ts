import { frFR as material } from '@mui/material/locale';
import { frFR as dataGrid } from '@mui/x-data-grid/locales';

/** MUI's and the DataGrid's French texts, loaded with the French catalogue. */
export const muiFrench = [material, dataGrid];
