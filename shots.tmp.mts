import { chromium } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { signInThroughApi, startBuiltServer } from './bench/builtServer';
const s = await startBuiltServer({ DATA_DIR: mkdtempSync('/tmp/shots-'), ADMIN_PASSWORD: 'x-admin-password' });
const t = await signInThroughApi(s.base, 'admin', 'x-admin-password');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const ctx = await browser.newContext({ viewport: { width: 390, height: 844 } });
const page = await ctx.newPage();
await page.goto(s.base + '/api/health');
await page.evaluate(([a, b]) => { localStorage.setItem('accessToken', a!); localStorage.setItem('refreshToken', b!); }, [t.jwt, t.refreshToken]);
const ent = await page.request.post(s.base + '/api/entities', { headers: { authorization: `Bearer ${t.jwt}` }, data: { name: 'samples', category: 'Lab', fields: [{ name: 'sampleid', label: 'Sample id' }, { name: 'weightkg', label: 'Weight (kg)' }] } });
const entity = await ent.json();
await page.request.post(s.base + '/api/entity-records/samples', { headers: { authorization: `Bearer ${t.jwt}` }, data: { fields: { sampleid: 'S-001', weightkg: '1.5' } } });
for (const p of (process.argv[2] ?? '/mexico').split(',').map((x) => x === '@e' ? `/entities/edit/${entity._id}` : x)) {
  await page.goto(s.base + p);
  await page.waitForLoadState('networkidle');
  const w = await page.evaluate(() => document.documentElement.scrollWidth);
  console.log(p, 'scrollWidth', w);
  await page.screenshot({ path: `/tmp/lead/${p.replace(/\//g, '_')}.png`, fullPage: true });
}
await browser.close(); await s.stop();
