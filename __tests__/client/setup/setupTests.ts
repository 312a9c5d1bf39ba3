import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';
import { applyLocale, loadLocale } from '@/i18n/i18n';

// A test's first screen loads its lazy chunks, each transformed by ts-jest on first import;
// on a busy 2-core machine that takes more than the default second.
configure({ asyncUtilTimeout: 5000 });

// Each test is a fresh browser: nothing kept by the last one (tokens, a list's last view).
afterEach(() => {
  window.localStorage.clear();
  window.sessionStorage.clear();
});

// The screens' texts: English, as the app starts in a browser that asks for it.
beforeAll(async () => {
  await loadLocale('en');
  applyLocale('en');
});
