import { Box, Paper, Stack, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { COUNTDOWN_CELLS_PER_ROW } from '@common/constants';
import { countdownTarget, dayCells, timeLeft } from './countdown';

const dateFormat = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'short' });
const targetFormat = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'full', timeStyle: 'short' });

/** The trip countdown (in French): a grid of the last days and a counter ticking every second. */
export function MexicoPage() {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), 1000);
    return () => window.clearInterval(timer);
  }, []);

  const left = timeLeft(now);
  const units = [
    ['jours', left.days],
    ['heures', left.hours],
    ['minutes', left.minutes],
    ['secondes', left.seconds],
  ] as const;

  return (
    <Stack spacing={3} lang="fr">
      <Typography variant="h4" component="h1">
        Compte à rebours : Mexique
      </Typography>
      <Typography>Départ le {targetFormat.format(countdownTarget())}</Typography>

      <Stack
        direction="row"
        spacing={2}
        useFlexGap
        sx={{ flexWrap: 'wrap' }}
        role="timer"
        aria-label="Temps restant"
      >
        {units.map(([label, value]) => (
          <Paper key={label} sx={{ p: 2, minWidth: 88, textAlign: 'center' }}>
            <Typography variant="h4" component="span" data-unit={label}>
              {value}
            </Typography>
            <Typography variant="body2">{label}</Typography>
          </Paper>
        ))}
      </Stack>
      {left.arrived && (
        <Typography variant="h5" component="p">
          Le grand jour est arrivé : bon voyage au Mexique !
        </Typography>
      )}

      <Box
        role="list"
        aria-label="Jours avant le départ"
        sx={{
          display: 'grid',
          // minmax(0, …): the cells shrink to fit a phone instead of widening the page.
          gridTemplateColumns: `repeat(${COUNTDOWN_CELLS_PER_ROW}, minmax(0, 1fr))`,
          gap: { xs: 0.25, sm: 0.5 },
        }}
      >
        {dayCells(now).map(({ date, passed }) => (
          <Box
            key={date.toISOString()}
            role="listitem"
            aria-label={`${dateFormat.format(date)}${passed ? ' (passé)' : ''}`}
            sx={{
              p: { xs: 0.25, sm: 0.5 },
              textAlign: 'center',
              fontSize: { xs: 8, sm: 12 },
              overflowWrap: 'anywhere',
              borderRadius: 1,
              bgcolor: passed ? 'success.light' : 'grey.200',
              textDecoration: passed ? 'line-through' : 'none',
            }}
          >
            {dateFormat.format(date)}
          </Box>
        ))}
      </Box>
    </Stack>
  );
}
