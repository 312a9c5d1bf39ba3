import { Box, Paper, Stack, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { COUNTDOWN_CELLS_PER_ROW } from '@common/constants';
import { useT } from '@/i18n/useT';
import { countdownTarget, dayCells, timeLeft } from './countdown';

const dateFormat = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'short' });
const monthFormat = new Intl.DateTimeFormat('fr-FR', { month: 'short' });
const rangeFormat = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long' });
const targetFormat = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'full', timeStyle: 'short' });

/** A date as French writes it: the first of a month is the `1er` (which Intl does not write). */
const frenchDate = (format: Intl.DateTimeFormat, date: Date) =>
  format
    .formatToParts(date)
    .map(({ type, value }) => (type === 'day' && value === '1' ? '1er' : value))
    .join('');

/**
 * The trip countdown (in French, whatever the language in effect: its messages are French in
 * every catalogue): a grid of the last days and a counter ticking every second.
 */
export function MexicoPage() {
  const t = useT();
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), 1000);
    return () => window.clearInterval(timer);
  }, []);

  const left = timeLeft(now);
  // Each unit as French writes it after a count: singular for 0 and 1, plural from 2.
  const units = [
    ['mexico.days', left.days],
    ['mexico.hours', left.hours],
    ['mexico.minutes', left.minutes],
    ['mexico.seconds', left.seconds],
  ] as const;
  const days = dayCells(now);

  return (
    <Stack spacing={3} lang="fr">
      <Typography variant="h4" component="h1">
        {t('mexico.title')}
      </Typography>
      <Typography>
        {t('mexico.departure', { date: frenchDate(targetFormat, countdownTarget()) })}
      </Typography>

      <Stack
        direction="row"
        spacing={2}
        useFlexGap
        sx={{ flexWrap: 'wrap' }}
        role="timer"
        aria-label={t('mexico.timeLeft')}
      >
        {units.map(([unit, value]) => (
          <Paper
            key={unit}
            sx={{ p: { xs: 1.5, sm: 2 }, minWidth: { xs: 72, sm: 88 }, textAlign: 'center' }}
          >
            <Typography variant="h4" component="span">
              {value}
            </Typography>
            <Typography variant="body2">{t(unit, { count: value })}</Typography>
          </Paper>
        ))}
      </Stack>
      {left.arrived && (
        <Typography variant="h5" component="p">
          {t('mexico.arrived')}
        </Typography>
      )}

      <Typography variant="body2">
        {t('mexico.range', {
          from: frenchDate(rangeFormat, days[0]!.date),
          to: frenchDate(rangeFormat, days.at(-1)!.date),
        })}
      </Typography>
      <Box
        role="list"
        aria-label={t('mexico.daysLeft')}
        sx={{
          display: 'grid',
          // minmax(0, …): the cells shrink to fit a phone instead of widening the page.
          gridTemplateColumns: `repeat(${COUNTDOWN_CELLS_PER_ROW}, minmax(0, 1fr))`,
          gap: { xs: 0.25, sm: 0.5 },
        }}
      >
        {days.map(({ date, passed }) => (
          <Box
            key={date.toISOString()}
            role="listitem"
            aria-label={
              passed
                ? t('mexico.passedDay', { date: frenchDate(dateFormat, date) })
                : frenchDate(dateFormat, date)
            }
            sx={{
              py: 0.5,
              textAlign: 'center',
              lineHeight: 1.2,
              borderRadius: 1,
              bgcolor: passed ? 'success.light' : 'grey.200',
              // Light grounds in both colour schemes: dark text on them in both.
              color: 'grey.900',
              // Not by colour alone: a passed day is struck through too.
              textDecoration: passed ? 'line-through' : 'none',
            }}
          >
            {/* On a phone a cell is ~21 px wide: the day's number alone, legible; the month
                joins it from 600 px (and the range above says which months). */}
            <Box component="span" sx={{ display: 'block', fontSize: { xs: 12, sm: 14 } }}>
              {date.getDate()}
            </Box>
            <Box component="span" sx={{ display: { xs: 'none', sm: 'block' }, fontSize: 11 }}>
              {monthFormat.format(date)}
            </Box>
          </Box>
        ))}
      </Box>
    </Stack>
  );
}
