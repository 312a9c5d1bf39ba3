import { act, screen, within } from '@testing-library/react';
import { COUNTDOWN_CELLS_PER_ROW, COUNTDOWN_DAYS } from '@common/constants';
import { renderApp } from '../../helpers/render';

/** The count shown above a unit, whichever number the unit is written in. */
const unit = (singular: string) =>
  within(screen.getByRole('timer')).getByText(new RegExp(`^${singular}s?$`)).previousElementSibling
    ?.textContent;

describe('the /mexico countdown', () => {
  // Load the lazy chunk up front, so that finding the page takes no (fake) time.
  beforeAll(() => import('@/features/mexico/MexicoPage'));
  afterEach(() => jest.useRealTimers());

  it('counts down to 5 January 2024 10:00, ticking every second', async () => {
    jest.useFakeTimers({ now: new Date(2024, 0, 3, 8, 59, 58) });
    renderApp('/mexico');
    // Let the route resolve without moving the fake clock (findBy* would advance it).
    for (let i = 0; i < 5 && !screen.queryByRole('timer'); i++) await act(() => Promise.resolve());
    expect([unit('jour'), unit('heure'), unit('minute'), unit('seconde')]).toEqual([
      '2',
      '1',
      '0',
      '2',
    ]);
    act(() => jest.advanceTimersByTime(1000));
    expect(unit('seconde')).toBe('1');
    act(() => jest.advanceTimersByTime(2000));
    expect([unit('heure'), unit('minute'), unit('seconde')]).toEqual(['0', '59', '59']);
    expect(screen.queryByText(/Le grand jour est arrivé/)).not.toBeInTheDocument();
  });

  it('writes each unit as French does: singular for 0 and 1, plural from 2', async () => {
    jest.useFakeTimers({ now: new Date(2024, 0, 3, 8, 59, 58) });
    renderApp('/mexico');
    for (let i = 0; i < 5 && !screen.queryByRole('timer'); i++) await act(() => Promise.resolve());
    // 2 days, 1 hour, 0 minutes, 2 seconds
    expect(screen.getByRole('timer')).toHaveTextContent('2jours1heure0minute2secondes');
    act(() => jest.advanceTimersByTime(3000));
    expect(screen.getByRole('timer')).toHaveTextContent('2jours0heure59minutes59secondes');
    act(() => jest.advanceTimersByTime(3_600_000));
    expect(screen.getByRole('timer')).toHaveTextContent('1jour23heures59minutes59secondes');
  });

  it('shows zeros and says the day has come once it is past', async () => {
    renderApp('/mexico');
    await screen.findByRole('timer');
    expect([unit('jour'), unit('heure'), unit('minute'), unit('seconde')]).toEqual([
      '0',
      '0',
      '0',
      '0',
    ]);
    expect(screen.getByText(/Le grand jour est arrivé/)).toBeInTheDocument();
  });

  it(`lays out ${COUNTDOWN_DAYS} day cells, ${COUNTDOWN_CELLS_PER_ROW} per row, marking the passed ones`, async () => {
    jest.useFakeTimers({ now: new Date(2024, 0, 2, 12, 0, 0) });
    renderApp('/mexico');
    const grid = await screen.findByRole('list', { name: 'Jours avant le départ' });
    expect(grid).toHaveStyle({
      gridTemplateColumns: `repeat(${COUNTDOWN_CELLS_PER_ROW}, minmax(0, 1fr))`,
    });
    const cells = within(grid).getAllByRole('listitem');
    expect(cells).toHaveLength(COUNTDOWN_DAYS);
    // The last three cells are 2, 3 and 4 January: only the days before the 2nd have passed.
    expect(cells.slice(-3).map((c) => c.getAttribute('aria-label'))).toEqual([
      '2 janv.',
      '3 janv.',
      '4 janv.',
    ]);
    // The first of a month as French writes it.
    expect(cells.at(-4)?.getAttribute('aria-label')).toBe('1er janv. (passé)');
    expect(screen.getByText(/^Du /)).toHaveTextContent('Du 1er octobre 2023 au 4 janvier 2024');
  });

  it('stops its timer when the page is left', async () => {
    jest.useFakeTimers();
    const { unmount } = renderApp('/mexico');
    await screen.findByRole('timer');
    expect(jest.getTimerCount()).toBeGreaterThan(0);
    unmount();
    act(() => jest.runOnlyPendingTimers());
    expect(jest.getTimerCount()).toBe(0);
  });
});
