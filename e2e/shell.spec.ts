import { expect, test } from './fixtures';

const banner =
  'This is a development server. It could be wiped out, changed, down, etc. Do not use sensitive information nor rely on storing data!';

test.describe('as a visitor', () => {
  test('the home page shows the shell, the greeting, the stack and the demo accounts', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(page.getByRole('note')).toHaveText(banner);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'An Experimentation' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Home' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Login' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hello, visitor');
    await expect(page.getByRole('heading', { name: 'Technology stack' })).toBeVisible();
    const credentials = page.getByRole('table', { name: 'Demo credentials' });
    await expect(credentials.getByRole('row')).toHaveText([
      'RoleUsernamePassword',
      'viewerviewerviewer123',
      'contributorcontributorcontributor123',
    ]);
    const footer = page.getByRole('contentinfo');
    await expect(footer).toContainText('An Experimentation');
    await expect(footer.getByRole('link')).toHaveAttribute('target', '_blank');
  });

  test('the first Tab offers to skip the banner and the navigation', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hello, visitor');
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();
    // The visitor's home page has nothing to focus: the next stop is past the page, in the
    // footer, not the navigation's links.
    await page.keyboard.press('Tab');
    await expect(page.getByRole('contentinfo').getByRole('link')).toBeFocused();
  });

  test('a deep link to /mexico loads the French countdown, past its date', async ({ page }) => {
    const response = await page.goto('/mexico');
    expect(response?.headers()['cache-control']).toBe('no-cache');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Compte à rebours : Mexique');
    const timer = page.getByRole('timer');
    // Past the date every count is 0, and French writes the unit in the singular after 0.
    await expect(timer).toHaveText('0jour0heure0minute0seconde');
    await expect(page.getByText('Le grand jour est arrivé')).toBeVisible();
    await expect(
      page.getByRole('list', { name: 'Jours avant le départ' }).getByRole('listitem'),
    ).toHaveCount(96);
    await expect(page.getByRole('note')).toHaveText(banner);
  });

  test("the countdown keeps 16 legible days a row within a phone's width", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto('/mexico');
    const days = page.getByRole('list', { name: 'Jours avant le départ' }).getByRole('listitem');
    await expect(days).toHaveCount(96);
    const tops = await days.evaluateAll((cells) =>
      cells.slice(0, 17).map((cell) => cell.getBoundingClientRect().top),
    );
    expect(new Set(tops.slice(0, 16)).size).toBe(1);
    expect(tops[16]).toBeGreaterThan(tops[0]!);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    // Each cell shows its day's number whole, at 12 px at least.
    const cells = await days.evaluateAll((cells) =>
      cells.map((cell) => ({
        text: (cell as HTMLElement).innerText,
        fontSize: parseFloat(getComputedStyle(cell.firstElementChild!).fontSize),
        fits: cell.scrollWidth <= cell.clientWidth,
      })),
    );
    expect(cells.filter(({ fits, fontSize }) => !fits || fontSize < 12)).toEqual([]);
    expect(cells.every(({ text }) => /^\d{1,2}$/.test(text))).toBe(true);
  });

  test('the home page does not load the chunks of the other screens', async ({ page }) => {
    const scriptsOf = async (url: string) => {
      const scripts: string[] = [];
      const record = (request: { url(): string; resourceType(): string }) => {
        if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
      };
      page.on('request', record);
      await page.goto(url);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      page.off('request', record);
      return scripts;
    };
    const home = await scriptsOf('/');
    const mexico = await scriptsOf('/mexico');
    expect(mexico.filter((script) => !home.includes(script)).length).toBeGreaterThan(0);
  });

  test('a screen whose scripts fail to load at first is fetched again and shows', async ({
    page,
  }) => {
    // Each lazy chunk (not the page's own scripts) is refused once, as a network blip or a
    // restarting server would.
    const html = await (await page.request.get('/login')).text();
    const entry = new Set([...html.matchAll(/<script[^>]* src="([^"]+)"/g)].map((m) => m[1]));
    const refused = new Set<string>();
    await page.route('**/assets/*.js', async (route) => {
      const { pathname } = new URL(route.request().url());
      if (entry.has(pathname) || refused.has(pathname)) return route.continue();
      refused.add(pathname);
      return route.fulfill({ status: 503, body: 'unavailable' });
    });
    await page.goto('/login');
    await expect(page.getByLabel('Username')).toBeVisible();
    expect(refused.size).toBeGreaterThan(0);
    await expect(page.getByText('Oops! Something went wrong.')).toHaveCount(0);
  });

  test("an unknown page shows the router's error page inside the shell", async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page.getByText('Unexpected Application Error!')).toBeVisible();
    await expect(page.getByText('404 Not Found')).toBeVisible();
    await expect(page.getByRole('note')).toHaveText(banner);
    await page.getByRole('link', { name: 'Home' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hello, visitor');
  });

  test('the API answers JSON errors and the app is served with its security headers', async ({
    request,
    page,
  }) => {
    const missing = await request.get('/api/no-such-route');
    expect(missing.status()).toBe(404);
    expect(await missing.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });

    const health = await request.get('/api/health');
    expect(await health.json()).toMatchObject({ status: 'ok', db: 'pglite' });

    const response = await page.goto('/');
    const headers = response!.headers();
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    const asset = await request.get(
      (await page.locator('script[src]').first().getAttribute('src'))!,
    );
    expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  test('the banner is in the page itself, painted before any script runs', async ({ browser }) => {
    const context = await browser.newContext({
      javaScriptEnabled: false,
      baseURL: process.env.E2E_BASE_URL,
    });
    const page = await context.newPage();
    await page.goto('/books');
    await expect(page.getByRole('banner').getByRole('note')).toHaveText(banner);
    await context.close();
  });

  test("the first paint has the system's colour scheme, or the one chosen here", async ({
    browser,
  }) => {
    // No app script runs: index.html's own (allowed by the CSP by its hash) sets the scheme.
    const context = await browser.newContext({
      colorScheme: 'dark',
      baseURL: process.env.E2E_BASE_URL,
    });
    const page = await context.newPage();
    await page.route('**/assets/*.js', (route) => route.abort());
    const html = page.locator('html');
    const ground = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.goto('/');
    await expect(html).toHaveClass('dark');
    expect(await ground()).toBe('rgb(18, 18, 18)');
    await page.evaluate(() => localStorage.setItem('mui-mode', 'light'));
    await page.reload();
    await expect(html).toHaveClass('light');
    expect(await ground()).not.toBe('rgb(18, 18, 18)');
    await context.close();
  });

  test('the dark theme follows the system until switched, and the switch is kept', async ({
    page,
  }) => {
    await page.goto('/');
    const html = page.locator('html');
    const toggle = page.getByRole('navigation', { name: 'Main' }).getByRole('button', {
      name: 'Dark theme',
    });
    const kept = () => page.evaluate(() => localStorage.getItem('mui-mode'));
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await expect(html).toHaveClass(/\blight\b/);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(html).toHaveClass(/\bdark\b/);
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
    // Switched against the system: kept, whatever the system says.
    await toggle.click();
    await expect(html).toHaveClass(/\blight\b/);
    expect(await kept()).toBe('light');
    await page.reload();
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');
    // Switched back to the system's scheme: it follows the system again.
    await toggle.click();
    await expect(html).toHaveClass(/\bdark\b/);
    expect(await kept()).toBe('system');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(html).toHaveClass(/\blight\b/);
    // By keyboard too.
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
    await page.reload();
    await expect(html).toHaveClass(/\bdark\b/);
  });

  test('robots.txt lets search engines in', async ({ request }) => {
    const robots = await request.get('/robots.txt');
    expect(robots.headers()['content-type']).toContain('text/plain');
    expect(await robots.text()).toContain('User-agent: *');
  });

  test("the browser gets the build's brotli copy of every script and of the page", async ({
    page,
  }) => {
    const scripts: Promise<string | undefined>[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') {
        scripts.push(response.allHeaders().then((headers) => headers['content-encoding']));
      }
    });
    const document = await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hello, visitor');
    expect(await document!.headerValue('content-encoding')).toBe('br');
    expect(scripts.length).toBeGreaterThan(0);
    expect(new Set(await Promise.all(scripts))).toEqual(new Set(['br']));
  });
});
