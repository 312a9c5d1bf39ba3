import type { Page, TestInfo } from '@playwright/test';
import en from '../src/i18n/locales/en.json';
import fr from '../src/i18n/locales/fr.json';
import { E2E_ADMIN_PASSWORD } from './accounts';
import {
  DESKTOP,
  expect,
  expectFitsWidth,
  PHONE,
  signIn,
  test,
  waitForNetworkQuiet,
} from './fixtures';

const french = fr as Record<string, string>;
const frenchWords = new Set(
  Object.values(french).flatMap((text) => text.toLowerCase().split(/[^\p{L}]+/u)),
);

/**
 * The English texts a French screen must not show: each English message French words
 * differently (/mexico's are French in both), without its placeholders' parts. A whole
 * message is looked for as an element's text or name; one of three words or more also
 * inside longer text.
 */
const english = Object.entries(en)
  .filter(([id, text]) => !id.startsWith('mexico.') && french[id] !== text)
  .map(([, text]) => text.split(/\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}/)[0]!.trim())
  .filter((text) => /[a-z]{2}/i.test(text))
  // A word French shares (routes, Menu, Session) is French too.
  .filter((text) => text.includes(' ') || !frenchWords.has(text.toLowerCase()));
const sentences = english.filter((text) => text.split(' ').length >= 3);

/** Every text of the page a person can read or hear: text, labels, titles, placeholders. */
const textsOf = (page: Page) =>
  page.evaluate(() => {
    const texts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      if (text && !node.parentElement?.closest('[lang="en"], script, style')) texts.push(text);
    }
    for (const element of document.body.querySelectorAll('[aria-label], [title], [placeholder]'))
      if (!element.closest('[lang="en"]'))
        for (const name of ['aria-label', 'title', 'placeholder'])
          if (element.getAttribute(name)) texts.push(element.getAttribute(name)!);
    return texts;
  });

/** The English texts on the page, once each. */
async function englishOn(page: Page) {
  const texts = await textsOf(page);
  const found = [
    ...texts.filter((text) => english.includes(text)),
    ...sentences.filter((sentence) => texts.some((text) => text.includes(sentence))),
  ];
  return [...new Set(found)];
}

/** Fails with each English text on the page; screenshots it at both widths. */
async function expectFrench(page: Page, testInfo: TestInfo, screen: string) {
  await waitForNetworkQuiet(page);
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    expect(await englishOn(page), `English on ${screen} at ${size.width} px`).toEqual([]);
    // The grid lays itself out again once it sees the new width.
    await expect(() => expectFitsWidth(page, `${screen} in French`)).toPass({ timeout: 5000 });
    await page.screenshot({
      path: testInfo.outputPath(`${screen.replace(/\W+/g, '-')}-${size.width}.png`),
      fullPage: true,
    });
  }
  await page.setViewportSize(DESKTOP);
}

/** Calls the API as the signed-in user of `page`. */
async function api(page: Page, method: 'GET' | 'POST' | 'PUT', path: string, data?: object) {
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  const answer = await page.request.fetch(path, {
    method,
    headers: { authorization: `Bearer ${token}` },
    data,
  });
  expect(answer.ok(), `${method} ${path}: ${await answer.text()}`).toBe(true);
  return answer.json();
}

/** An entity named after `prefix`, with one record (`S-001`), made through the API. */
async function entityWithRecord(page: Page, prefix: string) {
  const entity = await api(page, 'POST', '/api/entities', {
    name: `${prefix}_${Date.now().toString(36)}`,
    category: 'Lab',
    fields: [{ name: 'sampleid', label: 'Sample id' }],
  });
  await api(page, 'POST', `/api/entity-records/${entity.name}`, { fields: { sampleid: 'S-001' } });
  return entity;
}

test.describe('in French', () => {
  // The admin account's language goes back to none: the other tests' admin reads English.
  test.afterEach(async ({ page }) => {
    await api(page, 'PUT', '/api/auth/preferences', { locale: null });
  });

  test('French is chosen on the sign-in page, kept for the account, and every screen speaks it', async ({
    page,
    browser,
  }, testInfo) => {
    test.setTimeout(240_000);
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();
    await page.getByRole('button', { name: 'Français' }).click();
    await expect(page.getByRole('heading', { name: 'Connexion' })).toBeVisible();
    await expectFrench(page, testInfo, 'login');

    await page.getByLabel("Nom d'utilisateur").fill('admin');
    await page.getByLabel('Mot de passe').fill(E2E_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Bonjour, admin' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Bonjour, admin' })).toBeVisible();

    // Another browser, English by its settings and storage: the account's language follows.
    const elsewhere = await browser.newContext({
      locale: 'en-US',
      baseURL: process.env.E2E_BASE_URL,
    });
    const other = await elsewhere.newPage();
    await other.goto('/');
    await expect(other.getByRole('heading', { name: 'Hello, visitor' })).toBeVisible();
    await signIn(other, 'admin', E2E_ADMIN_PASSWORD);
    await expect(other.getByRole('heading', { name: 'Bonjour, admin' })).toBeVisible();
    await elsewhere.close();

    // Something on each screen: an entity with a record, and the seeded books, users and roles.
    const entity = await entityWithRecord(page, 'Langue');
    const [book] =
      (await api(page, 'GET', '/api/books')).books ?? (await api(page, 'GET', '/api/books'));
    const roles = await api(page, 'GET', '/api/roles');
    // A policy with a condition and a hidden field, so the Access screen shows its inputs.
    await api(page, 'PUT', `/api/entities/${entity._id}/policies`, {
      policies: [
        {
          role: 'viewer',
          read: { match: 'all', clauses: [{ field: '_createdBy', op: 'eq', value: '$me' }] },
          fields: { sampleid: 'readOnly' },
        },
      ],
    });
    const screens = [
      '/',
      '/books',
      '/book',
      `/book/${book._id}/edit`,
      '/entities',
      '/entities/add',
      `/entities/edit/${entity._id}`,
      `/entities/edit/${entity._id}/access`,
      `/entities/${entity.name}`,
      '/lims/jobs',
      '/users',
      '/users/add',
      '/roles',
      '/role',
      `/role/${roles[0]._id}/edit`,
      '/routes',
      '/audit',
      '/account',
      '/no-such-page',
    ];
    for (const path of screens) {
      await page.goto(path);
      await expect(page.locator('main h1, main [role=alert]').first()).toBeVisible();
      await expectFrench(page, testInfo, path);
    }
  });

  test('numbers and dates read and typed the French way in the records grid', async ({ page }) => {
    await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Français' }).click();
    await expect(page.getByRole('heading', { name: 'Bonjour, admin' })).toBeVisible();
    const entity = await api(page, 'POST', '/api/entities', {
      name: `Pesee_${Date.now().toString(36)}`,
      category: 'Lab',
      fields: [
        { name: 'poids', label: 'Poids', type: 'number' },
        { name: 'recu', label: 'Reçu', type: 'date' },
      ],
    });
    const path = `/api/entity-records/${entity.name}`;
    const record = await api(page, 'POST', path, { fields: { poids: 1234.5, recu: '2026-03-15' } });
    await page.goto(`/entities/${entity.name}`);
    const grid = page.getByRole('grid');
    await expect(grid.getByRole('gridcell', { name: '1\u202f234,5' })).toBeVisible();
    await expect(grid.getByRole('gridcell', { name: '15 mars 2026' })).toBeVisible();

    // The browser's number input reads the browser's language (English here): `3,75` was 375.
    await grid.getByRole('gridcell', { name: '1\u202f234,5' }).dblclick();
    const input = grid.getByRole('textbox', { name: 'Poids' });
    await expect(input).toHaveValue('1234,5');
    await input.fill('3,75');
    await page.keyboard.press('Enter');
    await expect(grid.getByRole('gridcell', { name: '3,75' })).toBeVisible();
    await expect
      .poll(async () => {
        const records: { _id: string; fields: { poids: number } }[] = await api(page, 'GET', path);
        return records.find((one) => one._id === record._id)?.fields.poids;
      })
      .toBe(3.75);

    // What is no number is refused under the cell, not saved as something else.
    await grid.getByRole('gridcell', { name: '3,75' }).dblclick();
    await input.fill('3,7,5');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('tooltip')).toHaveText('doit être un nombre');
    await expect(input).toHaveAttribute('aria-invalid', 'true');
    await page.keyboard.press('Escape');
    await expect(grid.getByRole('gridcell', { name: '3,75' })).toBeVisible();
  });

  test('every dialog and menu speaks it too', async ({ page }, testInfo) => {
    test.setTimeout(180_000);
    await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Français' }).click();
    await expect(page.getByRole('heading', { name: 'Bonjour, admin' })).toBeVisible();
    const entity = await entityWithRecord(page, 'Dialogue');

    /** Opens what `trigger` opens (a dialog, a menu…), scans it, then closes it. */
    const scan = async (
      what: string,
      trigger: ReturnType<Page['getByRole']>,
      opened: ReturnType<Page['getByRole']>,
      close: () => Promise<void> = () => page.keyboard.press('Escape'),
    ) => {
      await trigger.click();
      await expect(opened).toBeVisible();
      await waitForNetworkQuiet(page);
      expect(await englishOn(page), `English in ${what}`).toEqual([]);
      await page.screenshot({ path: testInfo.outputPath(`${what.replace(/\W+/g, '-')}.png`) });
      await close();
      await expect(opened).toBeHidden();
    };
    const dialog = page.getByRole('dialog');
    const menu = page.getByRole('menu');
    const cancel = () => dialog.getByRole('button', { name: 'Annuler' }).click();

    await page.goto('/books');
    await scan(
      'recently deleted books',
      page.getByRole('button', { name: 'Supprimés récemment' }),
      dialog,
    );
    await scan('the export menu', page.getByRole('button', { name: 'Exporter' }), menu);
    await scan('a book’s versions', page.getByRole('button', { name: 'Versions' }).first(), dialog);
    await scan(
      'deleting a book',
      page.getByRole('button', { name: 'Supprimer' }).first(),
      dialog,
      cancel,
    );

    await page.goto(`/entities/${entity.name}`);
    const grid = page.getByRole('grid');
    await expect(grid.getByText('S-001')).toBeVisible();
    await scan(
      'the column chooser',
      page.getByRole('button', { name: 'Colonnes' }),
      page.getByRole('dialog').or(menu),
    );
    await scan(
      'importing records',
      page.getByRole('button', { name: 'Importer' }),
      dialog,
      async () => {
        // The page's own file button: the browser's would say "Choose File" here.
        await expect(dialog.getByText('Aucun fichier choisi')).toBeVisible();
        await page.keyboard.press('Escape');
      },
    );
    await scan(
      'saving a view',
      page.getByRole('button', { name: 'Enregistrer la vue' }),
      dialog,
      cancel,
    );
    // The header's menu button shows on hover.
    await grid.getByRole('columnheader', { name: 'Sample id' }).hover();
    await scan(
      'a column’s menu',
      page.getByRole('button', { name: 'Menu pour la colonne Sample id' }),
      menu,
    );
    await scan(
      'a record’s versions',
      page.getByRole('button', { name: 'Versions de la fiche 1' }),
      dialog,
    );
    await scan(
      'deleting a record',
      page.getByRole('button', { name: 'Supprimer la fiche 1' }),
      dialog,
      cancel,
    );
    await grid.getByRole('checkbox').last().check();
    const selection = page.getByRole('region', { name: /^Sélection/ });
    await expect(selection).toBeVisible();
    expect(await englishOn(page), 'English in the selection’s actions').toEqual([]);
    await scan(
      'setting a field of the selection',
      selection.getByRole('button', { name: 'Modifier un champ' }),
      dialog,
      cancel,
    );

    await page.goto('/users');
    await scan(
      'setting a password',
      page.getByRole('button', { name: 'Définir un mot de passe pour viewer' }),
      dialog,
      cancel,
    );

    await page.setViewportSize(PHONE);
    await scan(
      'the phone’s menu',
      page.getByRole('button', { name: 'Menu', exact: true }),
      page.getByRole('navigation', { name: 'Menu principal' }),
    );
  });
});

test('English stays English, word for word, for a browser that asks for it', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Hello, visitor' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
  await expect(
    page.getByText(
      'This is a development server. It could be wiped out, changed, down, etc. Do not use sensitive information nor rely on storing data!',
    ),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Français' })).toHaveAttribute('lang', 'fr');
});
