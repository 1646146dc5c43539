import { describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../app.js';
import type * as ContentModule from '../../content/architecture.js';
import { testConfig } from '../../test/test-app.js';
import { createTestDatabase } from '../../test/test-database.js';

// A content file with a broken cross-reference, in place of the shipped one for this file only.
vi.mock('../../content/architecture.js', async (importOriginal) => {
  const original = await importOriginal<typeof ContentModule>();
  const copy = structuredClone(original.architecture);
  copy.diagram.edges.push({ from: 'human-initiated', to: 'no-such-box' });
  copy.componentOrder.reverse();
  return { architecture: copy };
});

describe('start-up with broken architecture content', () => {
  it('refuses to build the app, naming the file and every problem, and closes the database', async () => {
    const database = await createTestDatabase();
    try {
      const error = await buildApp(testConfig(database), { collectProcessMetrics: false }).then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(Error);
      const message = error instanceof Error ? error.message : '';
      expect(message).toContain('Invalid architecture content (src/server/content/architecture.ts), 3 problems:');
      expect(message).toContain("'no-such-box' is not a diagram component");
      expect(message).toContain("componentOrder must start with 'human-initiated'");
      expect(message).toContain("componentOrder entry 17 must be 'qa-test-component'");
    } finally {
      // On PostgreSQL the drop would wait on (and then force off) a connection buildApp left open.
      await database.drop();
    }
  });
});
