import { COUNTDOWN_DAYS, COUNTDOWN_TARGET } from '@common/constants';

const { year, monthIndex, day, hour } = COUNTDOWN_TARGET;

/** The moment counted down to: 5 January 2024, 10:00, in the visitor's time zone. */
export const countdownTarget = () => new Date(year, monthIndex, day, hour);

export interface TimeLeft {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
  arrived: boolean;
}

/** Whole days, hours, minutes and seconds from `now` to the target; zeros once it is past. */
export function timeLeft(now: Date, target = countdownTarget()): TimeLeft {
  const totalSeconds = Math.max(0, Math.floor((target.getTime() - now.getTime()) / 1000));
  return {
    days: Math.floor(totalSeconds / 86_400),
    hours: Math.floor((totalSeconds % 86_400) / 3600),
    minutes: Math.floor((totalSeconds % 3600) / 60),
    seconds: totalSeconds % 60,
    arrived: totalSeconds === 0,
  };
}

export interface DayCell {
  date: Date;
  passed: boolean;
}

/** The last COUNTDOWN_DAYS days before the target, each marked once it has passed. */
export function dayCells(now: Date, target = countdownTarget()): DayCell[] {
  return Array.from({ length: COUNTDOWN_DAYS }, (_, index) => {
    const date = new Date(target.getFullYear(), target.getMonth(), target.getDate());
    date.setDate(date.getDate() - (COUNTDOWN_DAYS - index));
    const nextDay = new Date(date);
    nextDay.setDate(date.getDate() + 1);
    return { date, passed: nextDay.getTime() <= now.getTime() };
  });
}
