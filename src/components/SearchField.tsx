import SearchIcon from '@mui/icons-material/Search';
import { InputAdornment, TextField } from '@mui/material';
import { SEARCH_MAX_LENGTH } from '@/hooks/useQuickSearch';

/** A list's quick-search box: every word must be found in one of the shown text fields. */
export function SearchField({
  value,
  onChange,
  placeholder = 'Words in any shown field',
}: {
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
}) {
  return (
    <TextField
      label="Search"
      type="search"
      size="small"
      placeholder={placeholder}
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
