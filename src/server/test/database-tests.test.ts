import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { databaseTestFiles } from '../../../scripts/database-tests.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** Which tests CI runs a second time, on PostgreSQL: none that opens a database may be missed. */
describe('the database tests', () => {
  const found = databaseTestFiles(ROOT);

  it('include every test that imports a helper of src/server/test, as the tests open databases through them', () => {
    const importsHelper = readdirSync(path.join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.test.ts'))
      .map((name) => `src/${name.split(path.sep).join('/')}`)
      .filter((file) => /from '(\.\.?\/)+(server\/)?test\/[\w-]+\.js'/.test(readFileSync(path.join(ROOT, file), 'utf8')));
    expect(importsHelper.length).toBeGreaterThan(40);
    expect(found).toEqual(expect.arrayContaining(importsHelper));
  });

  it('include a test that reaches the database only through other modules, and leave out pure units', () => {
    // The browser harness opens its databases through the same helper, two imports away.
    expect(databaseTestFiles(ROOT, ['e2e'])).toContain('e2e/shell.test.ts');
    expect(found).toContain('src/server/admin-cli.test.ts');
    expect(found).not.toContain('src/server/ai-providers/analysis-bounds.test.ts');
    expect(found).not.toContain('src/server/test/database-tests.test.ts');
  });
});
