import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures';

/**
 * Runs `move` (keys pressed), then checks that `target` has the focus and that the focus
 * shows: the control looks different from how it looked before.
 */
export async function expectFocusShows(target: Locator, move: () => Promise<void>) {
  // The pointer resting on the control would change its look too.
  await target.page().mouse.move(0, 0);
  const before = await target.screenshot({ animations: 'disabled' });
  await move();
  await expect(target).toBeFocused();
  await expect
    .poll(async () => (await target.screenshot({ animations: 'disabled' })).equals(before), {
      message: 'the focused control looks as it did unfocused',
    })
    .toBe(false);
}

/** Presses Tab until `target` has the focus (failing after `limit` presses); the focus shows. */
export async function tabTo(page: Page, target: Locator, limit = 25) {
  await expectFocusShows(target, async () => {
    for (let i = 0; i < limit; i++) {
      await page.keyboard.press('Tab');
      if (await target.evaluate((element) => element === document.activeElement)) return;
    }
  });
}
