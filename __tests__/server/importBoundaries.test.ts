import { ESLint } from 'eslint';

const eslint = new ESLint({ cwd: process.cwd() });

/** Lints `code` as if it were the file at `filePath`; answers the rules it breaks. */
async function brokenRules(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

/** A module that imports `from` and uses what it imports. */
const importing = (from: string) => `import * as imported from '${from}';\nexport { imported };\n`;

const BOUNDARY = 'import-x/no-restricted-paths';

describe('the client import boundaries (lint)', () => {
  it.each([
    ['a shared folder imports a feature', 'src/ui/Probe.ts', '@/features/books/books.api'],
    ['a shared folder imports app/', 'src/hooks/Probe.ts', '@/app/store'],
    ['the API layer imports the store', 'src/api/Probe.ts', '@/app/store'],
    ['a feature imports app/', 'src/features/books/Probe.ts', '@/app/store'],
    [
      'a feature imports another',
      'src/features/records/Probe.ts',
      '@/features/entities/entities.api',
    ],
    [
      'the audit feature imports another',
      'src/features/audit/Probe.ts',
      '@/features/users/users.api',
    ],
    ['common imports the client', 'common/Probe.ts', '@/lib/store'],
    ['the client imports the server', 'src/lib/Probe.ts', '@server/config'],
  ])('refuses it when %s', async (_case, filePath, from) => {
    expect(await brokenRules(filePath, importing(from))).toContain(BOUNDARY);
  });

  it.each([
    ['a feature imports a shared folder', 'src/features/books/Probe.ts', '@/api/api'],
    ['a feature imports its own files', 'src/features/books/Probe.ts', './books.api'],
    ['app/ composes features', 'src/app/Probe.ts', '@/features/books/books.api'],
    ['a shared folder imports another', 'src/ui/Probe.ts', '@/auth/auth.slice'],
  ])('allows it when %s', async (_case, filePath, from) => {
    expect(await brokenRules(filePath, importing(from))).not.toContain(BOUNDARY);
  });
});
