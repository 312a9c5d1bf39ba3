import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import testingLibrary from 'eslint-plugin-testing-library';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { readdirSync } from 'node:fs';

/** Every feature folder: each one a zone of its own, so a new feature is fenced in too. */
const features = readdirSync('./src/features');
/** The client's shared folders: what features use, and which use no feature. */
const sharedFolders = ['api', 'auth', 'components', 'hooks', 'lib', 'ui'];

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'data', 'coverage', 'test-results', 'playwright-report'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      'import-x/no-cycle': 'error',
      'import-x/no-duplicates': 'error',
      // The boundaries of STYLE.md (bulletproof-react's zones): common imports nothing of
      // ours; src and server never meet; in src the arrows point inward: app/ composes,
      // a feature imports no other feature and not app/, and the shared folders import no
      // feature and not app/.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './common', from: ['./src', './server'] },
            { target: './src', from: './server' },
            { target: './server', from: './src' },
            ...features.map((feature) => ({
              target: `./src/features/${feature}`,
              from: './src/features',
              except: [`./${feature}`],
            })),
            { target: './src/features', from: './src/app' },
            {
              target: sharedFolders.map((folder) => `./src/${folder}`),
              from: ['./src/features', './src/app'],
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'react-redux',
              importNames: ['useDispatch', 'useSelector'],
              message: 'Use useAppDispatch and useAppSelector from @/lib/store.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/lib/store.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['__tests__/client/**/*.{ts,tsx}'],
    ...testingLibrary.configs['flat/react'],
  },
  {
    // Playwright reads a fixture's dependencies from its destructuring pattern, even an empty one.
    files: ['e2e/**/*.ts'],
    rules: { 'no-empty-pattern': 'off' },
  },
  {
    files: ['**/*.{js,cjs}'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
