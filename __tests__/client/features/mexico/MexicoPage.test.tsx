import { act, screen, within } from '@testing-library/react';
import { COUNTDOWN_CELLS_PER_ROW, COUNTDOWN_DAYS } from '@common/constants';
import { renderApp } from '../../helpers/render';

const unit = (name: string) =>
  within(screen.getByRole('timer')).getByText(name).previousElementSibling?.textContent;

describe('the /mexico countdown', () => {
  // Load the lazy chunk up front, so that finding the page takes no (fake) time.
  beforeAll(() => import('@/features/mexico/MexicoPage'));
  afterEach(() => jest.useRealTimers());

  it('counts down to 5 January 2024 10:00, ticking every second', async () => {
    jest.useFakeTimers({ now: new Date(2024, 0, 3, 8, 59, 58) });
    renderApp('/mexico');
    // Let the route resolve without moving the fake clock (findBy* would advance it).
    for (let i = 0; i < 5 && !screen.queryByRole('timer'); i++) await act(() => Promise.resolve());
    expect([unit('jours'), unit('heures'), unit('minutes'), unit('secondes')]).toEqual([
      '2',
      '1',
      '0',
      '2',
    ]);
    act(() => jest.advanceTimersByTime(1000));
    expect(unit('secondes')).toBe('1');
    act(() => jest.advanceTimersByTime(2000));
    expect([unit('heures'), unit('minutes'), unit('secondes')]).toEqual(['0', '59', '59']);
    expect(screen.queryByText(/Le grand jour est arrivé/)).not.toBeInTheDocument();
  });

  it('shows zeros and says the day has come once it is past', async () => {
    renderApp('/mexico');
    await screen.findByRole('timer');
    expect([unit('jours'), unit('heures'), unit('minutes'), unit('secondes')]).toEqual([
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
    expect(cells.at(-4)?.getAttribute('aria-label')).toBe('1 janv. (passé)');
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
