import SearchIcon from '@mui/icons-material/Search';
import { InputAdornment, TextField } from '@mui/material';
import { SEARCH_MAX_LENGTH } from '@/hooks/useQuickSearch';
import { useT } from '@/i18n/useT';

/** A list's quick-search box: every word must be found in one of the shown text fields. */
export function SearchField({
  value,
  onChange,
  placeholder,
}: {
  value: string;
  onChange: (value: string) => void;
  /** What to type, in the language in effect; by default, words of any shown field. */
  placeholder?: string;
}) {
  const t = useT();
  return (
    <TextField
      label={t('grid.search')}
      type="search"
      size="small"
      placeholder={placeholder ?? t('grid.searchPlaceholder')}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      slotProps={{
        htmlInput: { maxLength: SEARCH_MAX_LENGTH },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
      sx={{ width: '100%', maxWidth: 400 }}
    />
  );
}
