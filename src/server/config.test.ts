import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, parseEnv, resolveSecrets } from './config.js';
import { guessablePinReason } from '../common/pin-rules.js';

/** The ConfigError a parse throws; fails the test when nothing (or something else) is thrown. */
function configErrorOf(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    if (error instanceof ConfigError) return error;
  }
  throw new Error('expected a ConfigError, but nothing was thrown');
}

async function rejectionOf(promise: Promise<unknown>): Promise<ConfigError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    if (error instanceof ConfigError) return error;
  }
  throw new Error('expected a ConfigError, but the promise resolved');
}

describe('parseEnv', () => {
  it('applies the documented defaults to an empty environment', () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(5000);
    expect(env.HOST).toBe('0.0.0.0');
    expect(env.DATA_DIR).toBe('./data');
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.AI_PROVIDER).toBe('local');
    expect(env.AI_MODEL).toBe('gpt-4o-mini');
    expect(env.AI_TIME_BUDGET_SECONDS).toBe(20);
    expect(env.AI_WORKERS).toBe(1);
    expect(env.COMMENT_LIMIT_PER_MINUTE).toBe(30);
    expect(env.LOG_LEVEL).toBe('info');
    expect(env.TRUST_PROXY).toBe(false);
    expect(env.QA_USER_NAME).toBe('QA Test User');
    expect(env.TEAM_PASSWORD).toBeUndefined();
    expect(env.ADMIN_PASSWORD).toBeUndefined();
    expect(env.QA_PIN).toBeUndefined();
    expect(env.PIN_PEPPER).toBeUndefined();
  });

  it('treats empty strings of optional variables as unset', () => {
    const env = parseEnv({ DATABASE_URL: '', TEAM_PASSWORD: '', QA_PIN: '', ADMIN_NAME: '   ', OPENAI_BASE_URL: '' });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.TEAM_PASSWORD).toBeUndefined();
    expect(env.QA_PIN).toBeUndefined();
    expect(env.ADMIN_NAME).toBeUndefined();
    expect(env.OPENAI_BASE_URL).toBeUndefined();
  });

  it('parses valid values into their typed form', () => {
    const env = parseEnv({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgresql://app:pw@db:5432/review',
      AI_PROVIDER: 'openai',
      LOG_LEVEL: 'debug',
      TRUST_PROXY: '2',
      QA_PIN: '0042',
    });
    expect(env.PORT).toBe(8080);
    expect(env.HOST).toBe('127.0.0.1');
    expect(env.DATABASE_URL).toBe('postgresql://app:pw@db:5432/review');
    expect(env.AI_PROVIDER).toBe('openai');
    expect(env.LOG_LEVEL).toBe('debug');
    expect(env.TRUST_PROXY).toBe(2);
    expect(env.QA_PIN).toBe('0042');
    expect(parseEnv({ PORT: '0' }).PORT).toBe(0);
    expect(parseEnv({ PORT: '65535' }).PORT).toBe(65535);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['PORT', '80.5'],
    ['AI_PROVIDER', 'foo'],
    ['LOG_LEVEL', 'loud'],
    ['TRUST_PROXY', 'maybe'],
    ['TRUST_PROXY', 'true'],
    ['TRUST_PROXY', '12'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['TRUST_PROXY', '10.0.0.1,'],
    ['METRICS_TOKEN', 'short'],
    ['ADMIN_NAME', 'Avery\tAdmin'],
    ['ADMIN_NAME', '<script>'],
    ['QA_USER_NAME', 'x'.repeat(101)],
    ['QA_USER_NAME', 'QA\u202eUser'],
    ['QA_PIN', '1234'],
    ['QA_PIN', '12a4'],
    ['OPENAI_BASE_URL', 'not a url'],
    ['AI_TIME_BUDGET_SECONDS', '0'],
    ['AI_TIME_BUDGET_SECONDS', '601'],
    ['AI_TIME_BUDGET_SECONDS', '2.5'],
    ['AI_WORKERS', '0'],
    ['AI_WORKERS', '17'],
    ['COMMENT_LIMIT_PER_MINUTE', '0'],
    ['COMMENT_LIMIT_PER_MINUTE', 'many'],
  ])('rejects %s=%s with one line naming the variable', (variable, value) => {
    const error = configErrorOf(() => parseEnv({ [variable]: value }));
    expect(error.message).toMatch(new RegExp(`\\b${variable}\\b`));
    expect(error.message).not.toContain('\n');
  });

  it.each([
    ['DATABASE_URL', 'mysql://root:hunter2-db-password@db.internal/app'],
    ['QA_PIN', '12a4'],
    ['QA_PIN', '0000'],
    ['TEAM_PASSWORD', 'shortpw'],
    ['ADMIN_PASSWORD', 'tiny-pw'],
    ['PIN_PEPPER', 'pepper-short'],
    ['OPENAI_API_KEY', `sk-${'k'.repeat(600)}`],
    ['METRICS_TOKEN', 'metrics-short'],
  ])('rejects %s without echoing its value', (variable, value) => {
    const error = configErrorOf(() => parseEnv({ [variable]: value }));
    expect(error.message).toMatch(new RegExp(`\\b${variable}\\b`));
    expect(error.message).not.toContain('\n');
    expect(error.message).not.toContain(value.slice(0, 6));
  });

  it.each(['1987', '4545', '1221', '7410', '1357'])('rejects QA_PIN=%s as guessable, with the reason', (pin) => {
    const error = configErrorOf(() => parseEnv({ QA_PIN: pin }));
    expect(error.message).toContain(`must not be a guessable PIN: ${guessablePinReason(pin) ?? 'a reason'}`);
  });

  it('does not echo the database URL credentials even in part', () => {
    const error = configErrorOf(() => parseEnv({ DATABASE_URL: 'mysql://x' }));
    expect(error.message).toMatch(/\bDATABASE_URL\b/);
    expect(error.message).not.toContain('mysql');
  });

  it.each([
    ['false', false],
    ['', false],
    ['0', false],
    ['1', 1],
    ['9', 9],
    ['127.0.0.1', ['127.0.0.1']],
    [' 10.0.0.0/8 , 192.168.1.10, fd00::/8,::1 ', ['10.0.0.0/8', '192.168.1.10', 'fd00::/8', '::1']],
    ['loopback,uniquelocal', ['loopback', 'uniquelocal']],
  ])('reads TRUST_PROXY=%j', (value, expected) => {
    expect(parseEnv({ TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });

  it('refuses TRUST_PROXY=true with one line that says what to write instead', () => {
    const error = configErrorOf(() => parseEnv({ TRUST_PROXY: 'true' }));
    expect(error.message).toBe(
      "Invalid configuration: TRUST_PROXY must not be true, which would trust any client's X-Forwarded-For; set the number of proxies in front of the server (e.g. 1) or their addresses (e.g. 10.0.0.0/8,127.0.0.1)",
    );
    expect(configErrorOf(() => parseEnv({ TRUST_PROXY: 'TRUE' })).message).toContain('must not be true');
  });

  it.each(['10.0.0.1/0', '10.0.0.1/08x', 'fe80::1%eth0', '10.0.0.300', 'proxy.internal', '10.0.0.0/8/8', '::1/129'])(
    'refuses the TRUST_PROXY entry %s and names it',
    (entry) => {
      const error = configErrorOf(() => parseEnv({ TRUST_PROXY: `127.0.0.1,${entry}` }));
      expect(error.message).toContain(`"${entry}" is not an IP address or CIDR range`);
      expect(error.message).not.toContain('\n');
    },
  );

  it('reads METRICS_TOKEN and never echoes it', () => {
    expect(parseEnv({}).METRICS_TOKEN).toBeUndefined();
    expect(parseEnv({ METRICS_TOKEN: '' }).METRICS_TOKEN).toBeUndefined();
    expect(parseEnv({ METRICS_TOKEN: 'scrape-token-0123456789' }).METRICS_TOKEN).toBe('scrape-token-0123456789');
  });

  it('names the value of a non-secret variable to help the operator', () => {
    const error = configErrorOf(() => parseEnv({ PORT: 'abc' }));
    expect(error.message).toContain('"abc"');
  });
});

describe('resolveSecrets', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'biggy-config-test-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  async function freshDir(name: string): Promise<string> {
    return mkdtemp(path.join(dataDir, `${name}-`));
  }

  it('generates every missing secret into DATA_DIR/secrets.json with mode 0600', async () => {
    const dir = path.join(await freshDir('generate'), 'nested', 'data');
    const resolved = await resolveSecrets(parseEnv({}), dir);

    expect(resolved.file).toBe(path.join(dir, 'secrets.json'));
    expect([...resolved.generated].sort()).toEqual(['adminPassword', 'pinPepper', 'qaPin', 'teamPassword']);
    expect(resolved.secrets.teamPassword.length).toBeGreaterThanOrEqual(8);
    expect(resolved.secrets.adminPassword.length).toBeGreaterThanOrEqual(8);
    expect(resolved.secrets.qaPin).toMatch(/^\d{4}$/);
    expect(resolved.secrets.pinPepper.length).toBeGreaterThanOrEqual(16);
    expect(resolved.secrets.teamPassword).not.toBe(resolved.secrets.adminPassword);

    const mode = (await stat(resolved.file)).mode & 0o777;
    expect(mode.toString(8)).toBe('600');
    expect(((await stat(dir)).mode & 0o777).toString(8)).toBe('700');
    expect(guessablePinReason(resolved.secrets.qaPin)).toBeUndefined();
    const stored: unknown = JSON.parse(await readFile(resolved.file, 'utf8'));
    expect(stored).toEqual(resolved.secrets);
  });

  it('reuses the stored secrets on a second call and generates nothing', async () => {
    const dir = await freshDir('reuse');
    const first = await resolveSecrets(parseEnv({}), dir);
    const before = await readFile(first.file, 'utf8');
    const second = await resolveSecrets(parseEnv({}), dir);

    expect(second.generated).toEqual([]);
    expect(second.secrets).toEqual(first.secrets);
    expect(await readFile(first.file, 'utf8')).toBe(before);
  });

  it('lets environment values win and never writes them to the file', async () => {
    const dir = await freshDir('env-wins');
    const env = parseEnv({ TEAM_PASSWORD: 'team-password-from-env', QA_PIN: '9875' });
    const resolved = await resolveSecrets(env, dir);

    expect(resolved.secrets.teamPassword).toBe('team-password-from-env');
    expect(resolved.secrets.qaPin).toBe('9875');
    expect([...resolved.generated].sort()).toEqual(['adminPassword', 'pinPepper']);
    const text = await readFile(resolved.file, 'utf8');
    expect(text).not.toContain('team-password-from-env');
    expect(text).not.toContain('9875');
    expect(Object.keys(JSON.parse(text) as object).sort()).toEqual(['adminPassword', 'pinPepper']);
  });

  it('prefers an environment value over a stored one', async () => {
    const dir = await freshDir('env-over-file');
    const stored = await resolveSecrets(parseEnv({}), dir);
    const resolved = await resolveSecrets(parseEnv({ ADMIN_PASSWORD: 'admin-password-from-env' }), dir);
    expect(resolved.secrets.adminPassword).toBe('admin-password-from-env');
    expect(resolved.secrets.teamPassword).toBe(stored.secrets.teamPassword);
    expect(resolved.generated).toEqual([]);
  });

  it('does not create the file when the environment supplies every secret', async () => {
    const dir = await freshDir('all-env');
    const env = parseEnv({
      TEAM_PASSWORD: 'team-password-env',
      ADMIN_PASSWORD: 'admin-password-env',
      QA_PIN: '7294',
      PIN_PEPPER: 'pepper-from-the-environment',
    });
    const resolved = await resolveSecrets(env, dir);
    expect(resolved.generated).toEqual([]);
    expect(existsSync(resolved.file)).toBe(false);
  });

  it('refuses a secrets file that is not JSON, without echoing its content', async () => {
    const dir = await freshDir('corrupt');
    await writeFile(path.join(dir, 'secrets.json'), '{"teamPassword": leaked-secret-value, "qaPin": "1234"', { mode: 0o600 });
    const error = await rejectionOf(resolveSecrets(parseEnv({}), dir));
    expect(error.message).toContain('secrets.json');
    expect(error.message).not.toContain('\n');
    expect(error.message).not.toContain('leaked-');
    expect(error.message).not.toContain('assword');
  });

  it('refuses a secrets file with values of the wrong shape', async () => {
    const dir = await freshDir('wrong-shape');
    await writeFile(path.join(dir, 'secrets.json'), JSON.stringify({ qaPin: '12a4', teamPassword: 'stored-team-password' }));
    const error = await rejectionOf(resolveSecrets(parseEnv({}), dir));
    expect(error.message).toContain('secrets.json');
    expect(error.message).not.toContain('stored-team-password');
  });
});

describe('the process with an invalid environment', { timeout: 30_000 }, () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'biggy-config-process-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  function runMain(extra: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'info', ...extra };
    delete env.NODE_OPTIONS;
    if (extra.DATABASE_URL === undefined) delete env.DATABASE_URL;
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.on('error', reject);
      child.on('close', (code) => { resolve({ code, stdout, stderr }); });
    });
  }

  const meaningfulLines = (text: string) =>
    text.split('\n').filter((line) => line.trim() !== '' && !/^npm (warn|notice)/i.test(line));

  it('exits 1 with exactly one stderr line naming PORT', async () => {
    const result = await runMain({ PORT: 'abc' });
    expect(result.code).toBe(1);
    const lines = meaningfulLines(result.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/\bPORT\b/);
    expect(meaningfulLines(result.stdout)).toEqual([]);
    // Configuration is checked before anything is written.
    expect(existsSync(path.join(dataDir, 'secrets.json'))).toBe(false);
  });

  it('exits 1 naming DATABASE_URL without printing its credentials', async () => {
    const result = await runMain({ DATABASE_URL: 'mysql://root:hunter2-db-password@db/app' });
    expect(result.code).toBe(1);
    const lines = meaningfulLines(result.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/\bDATABASE_URL\b/);
    expect(result.stderr + result.stdout).not.toContain('hunter2');
  });
});
