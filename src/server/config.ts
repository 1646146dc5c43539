import { randomBytes, randomInt } from 'node:crypto';
import { mkdir, readFile, writeFile, chmod } from 'node:fs/promises';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { MEMBER_LIMITS } from '../common/limits.js';
import { NAME_MAX_LENGTH } from '../common/limits.js';
import { isValidFullName } from '../common/names.js';
import { guessablePinReason, isCompletePin, PIN_PATTERN } from '../common/pin-rules.js';
import { SESSION_CACHE_TTL_MS } from './modules/auth/session-cache.js';
import { DEFAULT_POOL_SIZE, DEFAULT_POOL_WAIT_MS } from './db/connection.js';

/**
 * The only reader of process.env. Everything else receives a typed
 * AppConfig, which keeps tests free to build as many differently configured apps as they like.
 */

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** A member's full name, by the rule the admin's additions follow. */
const memberName = z
  .string()
  .max(NAME_MAX_LENGTH, `must be at most ${NAME_MAX_LENGTH} characters`)
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value))
  .refine((value) => value === undefined || isValidFullName(value), "must be a full name: letters, spaces, apostrophes, dots and hyphens");

const optionalText = (max: number) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .optional()
    .transform((value) => (value === undefined || value.trim() === '' ? undefined : value));

/** A whole number with a default; the digit cap keeps Number() exact before the bounds are checked. */
const wholeNumber = (fallback: string, bounds: { digits: number; min?: number; max?: number }, message: string) => {
  const pattern = new RegExp(`^\\d{1,${bounds.digits}}$`);
  return z
    .string()
    .default(fallback)
    .refine((value) => pattern.test(value) && Number(value) >= (bounds.min ?? 0) && Number(value) <= (bounds.max ?? Number.MAX_SAFE_INTEGER), message)
    .transform(Number);
};

const secretText = (min: number) =>
  z
    .string()
    .optional()
    .transform((value) => (value === undefined || value === '' ? undefined : value))
    .refine((value) => value === undefined || value.length >= min, `must be at least ${min} characters`);

/**
 * Whose X-Forwarded-For and X-Forwarded-Proto to believe: nobody (false), the nearest `hops`
 * addresses of the chain (a count of proxies in front of the server), or connections from the
 * listed proxy addresses and subnets. Never everybody: the left-most X-Forwarded-For entry is
 * whatever the client wrote, so trusting it lets anyone pick the address that per-IP limits and
 * the audit log see.
 */
export type TrustProxy = false | number | readonly string[];

export const MAX_PROXY_HOPS = 9;
/** proxy-addr's names for well-known ranges, accepted in a TRUST_PROXY list. */
const PROXY_RANGE_NAMES: ReadonlySet<string> = new Set(['loopback', 'linklocal', 'uniquelocal']);
const TRUST_PROXY_EXAMPLES = 'the number of proxies in front of the server (e.g. 1) or their addresses (e.g. 10.0.0.0/8,127.0.0.1)';

function parseTrustProxy(raw: string): TrustProxy | { problem: string } {
  const value = raw.trim();
  const lower = value.toLowerCase();
  if (lower === '' || lower === 'false' || lower === '0') return false;
  if (lower === 'true') return { problem: `must not be true, which would trust any client's X-Forwarded-For; set ${TRUST_PROXY_EXAMPLES}` };
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return hops <= MAX_PROXY_HOPS ? hops : { problem: `must be at most ${MAX_PROXY_HOPS} proxies (got ${value}); set ${TRUST_PROXY_EXAMPLES}` };
  }
  const entries = value.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    if (!isProxyAddress(entry)) {
      return { problem: `must be false, ${TRUST_PROXY_EXAMPLES}; "${truncate(entry)}" is not an IP address or CIDR range` };
    }
  }
  return entries;
}

/** An IPv4 or IPv6 address, optionally with a prefix length (10.0.0.0/8, fd00::/8), or a range name. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  // Zone ids (fe80::1%eth0) name an interface of one machine; they are not a proxy's address.
  if (rest.length > 0 || address.includes('%')) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) >= 1 && Number(prefix) <= (family === 4 ? 32 : 128);
}

const envSchema = z.object({
  PORT: wholeNumber('5000', { digits: 5, max: 65535 }, 'must be a whole number from 0 to 65535'),
  HOST: z.string().min(1, 'must not be empty').default('0.0.0.0'),
  PUBLIC_URL: z
    .string()
    .optional()
    .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()))
    .refine(
      (value) => value === undefined || (/^https?:\/\/[^\s?#]+$/.test(value) && URL.canParse(value)),
      'must be the http:// or https:// address members open, such as https://review.example.com',
    ),
  DATA_DIR: z.string().min(1, 'must not be empty').default('./data'),
  DATABASE_URL: z
    .string()
    .optional()
    .transform((value) => (value === undefined || value === '' ? undefined : value))
    .refine(
      (value) => value === undefined || /^postgres(ql)?:\/\/[^\s]+$/.test(value),
      'must be a postgres:// or postgresql:// URL (leave it unset for the embedded SQLite database)',
    ),
  DATABASE_POOL_SIZE: wholeNumber(String(DEFAULT_POOL_SIZE), { digits: 3, min: 1, max: 500 }, 'must be a whole number of connections from 1 to 500'),
  DATABASE_POOL_WAIT_MS: wholeNumber(String(DEFAULT_POOL_WAIT_MS), { digits: 6, min: 50, max: 60_000 }, 'must be a whole number of milliseconds from 50 to 60000'),
  DATABASE_STARTUP_WAIT_SECONDS: wholeNumber('30', { digits: 4, min: 0, max: 3600 }, 'must be a whole number of seconds from 0 to 3600'),
  SHUTDOWN_DRAIN_SECONDS: wholeNumber('10', { digits: 3, min: 1, max: 600 }, 'must be a whole number of seconds from 1 to 600'),
  TEAM_PASSWORD: secretText(8),
  ADMIN_PASSWORD: secretText(8),
  ADMIN_NAME: memberName,
  QA_USER_NAME: memberName.transform((value) => value ?? 'QA Test User'),
  QA_PIN: z
    .string()
    .optional()
    .transform((value) => (value === undefined || value === '' ? undefined : value))
    .refine((value) => value === undefined || isCompletePin(value), 'must be exactly 4 digits')
    .superRefine((value, context) => {
      const reason = value === undefined ? undefined : guessablePinReason(value);
      if (reason !== undefined) context.addIssue({ code: 'custom', message: `must not be a guessable PIN: ${reason}` });
    }),
  PIN_PEPPER: secretText(16),
  AI_PROVIDER: z.enum(['local', 'openai'], { error: 'must be "local" or "openai"' }).default('local'),
  OPENAI_BASE_URL: z
    .string()
    .optional()
    .transform((value) => (value === undefined || value === '' ? undefined : value))
    .refine((value) => value === undefined || URL.canParse(value), 'must be a URL such as http://localhost:11434/v1'),
  OPENAI_API_KEY: optionalText(500),
  AI_MODEL: optionalText(200).transform((value) => value ?? 'gpt-4o-mini'),
  AI_TIME_BUDGET_SECONDS: wholeNumber('20', { digits: 3, min: 1, max: 600 }, 'must be a whole number of seconds from 1 to 600'),
  AI_WORKERS: wholeNumber('1', { digits: 2, min: 1, max: 16 }, 'must be a whole number of worker threads from 1 to 16'),
  SESSION_IDLE_MINUTES: wholeNumber('30', { digits: 4, min: 1, max: 1440 }, 'must be a whole number of minutes from 1 to 1440'),
  SESSION_ABSOLUTE_HOURS: wholeNumber('12', { digits: 3, min: 1, max: 720 }, 'must be a whole number of hours from 1 to 720'),
  SIGN_IN_LIMIT_PER_MINUTE: wholeNumber('10', { digits: 5, min: 1 }, 'must be a whole number of attempts, at least 1'),
  COMMENT_LIMIT_PER_MINUTE: wholeNumber(String(MEMBER_LIMITS.commentsPerMinute), { digits: 5, min: 1 }, 'must be a whole number of comments, at least 1'),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value, context): TrustProxy => {
      const parsed = parseTrustProxy(value);
      if (typeof parsed === 'object' && 'problem' in parsed) {
        // The message names the offending value itself.
        context.issues.push({ code: 'custom', message: parsed.problem, input: value, params: { quotesInput: true } });
        return z.NEVER;
      }
      return parsed;
    }),
  METRICS_TOKEN: secretText(16),
  ERROR_LOG_MAX_ROWS: wholeNumber('10000', { digits: 8, min: 100 }, 'must be a whole number of rows, at least 100'),
  ERROR_LOG_RESOLVED_RETENTION_DAYS: wholeNumber('30', { digits: 4, min: 1 }, 'must be a whole number of days, at least 1'),
  ACTIVITY_RETENTION_DAYS: wholeNumber('180', { digits: 4, min: 1 }, 'must be a whole number of days, at least 1'),
  AI_PROMPT_HISTORY_MAX: wholeNumber('200', { digits: 6, min: 1 }, 'must be a whole number of prompt versions, at least 1'),
});

export type Env = z.infer<typeof envSchema>;

export interface Secrets {
  teamPassword: string;
  adminPassword: string;
  qaPin: string;
  pinPepper: string;
}

/** Where each secret's value came from: the environment, or generated on a first start and kept in DATA_DIR. */
export type SecretSources = Record<keyof Secrets, 'environment' | 'generated'>;

export function secretSourcesOf(env: Env): SecretSources {
  const source = (value: string | undefined) => (value === undefined ? 'generated' : 'environment');
  return { teamPassword: source(env.TEAM_PASSWORD), adminPassword: source(env.ADMIN_PASSWORD), qaPin: source(env.QA_PIN), pinPepper: source(env.PIN_PEPPER) };
}

export interface AppConfig {
  port: number;
  host: string;
  /** The address members open; enrollment links are built on it. */
  publicUrl: string;
  dataDir: string;
  /** Unset means the embedded SQLite database in dataDir. */
  databaseUrl: string | undefined;
  /** PostgreSQL: connections per process, the longest wait for one, and how long start-up waits for the server. */
  database: { poolSize: number; poolWaitMs: number; startupWaitMs: number };
  /** Longest a graceful stop waits for requests in flight before the process exits anyway. */
  drainMs: number;
  adminName: string | undefined;
  qaUserName: string;
  ai: {
    provider: 'local' | 'openai';
    baseUrl: string | undefined;
    apiKey: string | undefined;
    model: string;
    /** How long one local analysis may run before it is stopped. */
    localBudgetMs: number;
    /** Worker threads running the local analyzer (each holds its own copy of the language model). */
    workers: number;
  };
  /** ASVS level 2 session limits; the PIN-only quick login makes the short idle timeout painless. */
  session: {
    idleMs: number;
    absoluteMs: number;
    /** How long a looked-up session answers from this instance's memory (0: never); see SessionCache. */
    cacheMs: number;
  };
  /** Sign-in attempts a minute per client IP, across every sign-in route. */
  signInLimitPerMinute: number;
  /** Comments a minute one member may post. */
  commentLimitPerMinute: number;
  logLevel: (typeof LOG_LEVELS)[number];
  trustProxy: TrustProxy;
  /** When set, GET /metrics needs `Authorization: Bearer <token>`; unset, it answers only this machine. */
  metricsToken: string | undefined;
  /** Client error reports kept: at most this many rows, resolved ones for this long. */
  errorLogs: { maxRows: number; resolvedRetentionMs: number };
  /** Activity log rows older than this are rolled up into daily counts and deleted. */
  activityRetentionDays: number;
  /** Narrative prompt versions kept at most; saving a new one deletes the oldest beyond, never the active one. */
  aiPromptHistoryMax: number;
  /** Directory of the built client; absent when only the API is wanted (API tests). */
  clientDir: string | undefined;
  secrets: Secrets;
  secretSources: SecretSources;
}

export class ConfigError extends Error {}

/** Parses the environment; the first problem becomes one line naming the variable. */
export function parseEnv(env: NodeJS.ProcessEnv): Env {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    const issue = result.error.issues[0];
    const variable = issue?.path.join('.') ?? 'environment';
    const raw = typeof env[variable] === 'string' ? ` (got "${truncate(env[variable])}")` : '';
    // Secrets and the database URL (which may hold a password) are never echoed.
    const quoted = issue?.code === 'custom' && issue.params?.['quotesInput'] === true;
    const shown = /PASSWORD|PEPPER|PIN|KEY|TOKEN|DATABASE_URL/.test(variable) || quoted ? '' : raw;
    throw new ConfigError(`Invalid configuration: ${variable} ${issue?.message ?? 'is invalid'}${shown}`);
  }
  return result.data;
}

function truncate(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value;
}

const storedSecretsSchema = z
  .object({
    teamPassword: z.string().min(8),
    adminPassword: z.string().min(8),
    qaPin: z.string().regex(PIN_PATTERN),
    pinPepper: z.string().min(16),
  })
  .partial();

export interface ResolvedSecrets {
  secrets: Secrets;
  /** Names of the secrets created on this start; empty on every later start. */
  generated: (keyof Secrets)[];
  file: string;
}

/**
 * Environment values win; otherwise a value kept in DATA_DIR/secrets.json; otherwise a new random
 * one is generated and written there with mode 0600 so a restart keeps members able to sign in.
 */
export async function resolveSecrets(env: Env, dataDir: string): Promise<ResolvedSecrets> {
  const file = path.join(dataDir, 'secrets.json');
  let stored: z.infer<typeof storedSecretsSchema> = {};
  try {
    const text = await readFile(file, 'utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      // JSON.parse quotes the text around the fault, which here is a secret: say only where.
      throw new ConfigError(`Invalid configuration: ${file} is not valid JSON`);
    }
    const parsed = storedSecretsSchema.safeParse(json);
    if (!parsed.success) throw new ConfigError(`Invalid configuration: ${file} is not a valid secrets file`);
    stored = parsed.data;
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    if (!isMissingFile(error)) throw new ConfigError(`Invalid configuration: ${file} cannot be read (${String(error)})`);
  }

  const generated: (keyof Secrets)[] = [];
  const pick = (name: keyof Secrets, fromEnv: string | undefined, make: () => string): string => {
    if (fromEnv !== undefined) return fromEnv;
    const kept = stored[name];
    if (kept !== undefined) return kept;
    generated.push(name);
    const made = make();
    stored[name] = made;
    return made;
  };

  const secrets: Secrets = {
    teamPassword: pick('teamPassword', env.TEAM_PASSWORD, () => randomBytes(12).toString('base64url')),
    adminPassword: pick('adminPassword', env.ADMIN_PASSWORD, () => randomBytes(18).toString('base64url')),
    qaPin: pick('qaPin', env.QA_PIN, randomUnguessablePin),
    pinPepper: pick('pinPepper', env.PIN_PEPPER, () => randomBytes(32).toString('base64url')),
  };

  if (generated.length > 0) {
    // The directory holds the secrets and the database: nobody else needs to list it.
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    await writeFile(file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
    // writeFile's mode applies only when it creates the file.
    await chmod(file, 0o600);
  }
  return { secrets, generated, file };
}

/** A generated PIN follows the rule members' PINs follow. */
function randomUnguessablePin(): string {
  for (;;) {
    const pin = String(randomInt(0, 10_000)).padStart(4, '0');
    if (guessablePinReason(pin) === undefined) return pin;
  }
}

function isMissingFile(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'ENOENT';
}

/** Without PUBLIC_URL, links point at this machine's own port: right for a trial on one computer. */
export function publicUrlOf(env: Env): string {
  return (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
}

export function configFromEnv(env: Env, secrets: Secrets, clientDir: string | undefined): AppConfig {
  return {
    port: env.PORT,
    host: env.HOST,
    publicUrl: publicUrlOf(env),
    dataDir: path.resolve(env.DATA_DIR),
    databaseUrl: env.DATABASE_URL,
    database: { poolSize: env.DATABASE_POOL_SIZE, poolWaitMs: env.DATABASE_POOL_WAIT_MS, startupWaitMs: env.DATABASE_STARTUP_WAIT_SECONDS * 1000 },
    drainMs: env.SHUTDOWN_DRAIN_SECONDS * 1000,
    adminName: env.ADMIN_NAME,
    qaUserName: env.QA_USER_NAME,
    ai: {
      provider: env.AI_PROVIDER,
      baseUrl: env.OPENAI_BASE_URL,
      apiKey: env.OPENAI_API_KEY,
      model: env.AI_MODEL,
      localBudgetMs: env.AI_TIME_BUDGET_SECONDS * 1000,
      workers: env.AI_WORKERS,
    },
    session: { idleMs: env.SESSION_IDLE_MINUTES * 60_000, absoluteMs: env.SESSION_ABSOLUTE_HOURS * 3_600_000, cacheMs: SESSION_CACHE_TTL_MS },
    signInLimitPerMinute: env.SIGN_IN_LIMIT_PER_MINUTE,
    commentLimitPerMinute: env.COMMENT_LIMIT_PER_MINUTE,
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY,
    metricsToken: env.METRICS_TOKEN,
    errorLogs: { maxRows: env.ERROR_LOG_MAX_ROWS, resolvedRetentionMs: env.ERROR_LOG_RESOLVED_RETENTION_DAYS * 24 * 3_600_000 },
    activityRetentionDays: env.ACTIVITY_RETENTION_DAYS,
    aiPromptHistoryMax: env.AI_PROMPT_HISTORY_MAX,
    clientDir,
    secrets,
    secretSources: secretSourcesOf(env),
  };
}

/** Full start-up configuration: environment, then secrets. */
export async function loadConfig(
  env: NodeJS.ProcessEnv,
  clientDir: string | undefined,
): Promise<{ config: AppConfig; generatedSecrets: (keyof Secrets)[]; secretsFile: string }> {
  const parsed = parseEnv(env);
  const dataDir = path.resolve(parsed.DATA_DIR);
  const resolved = await resolveSecrets(parsed, dataDir);
  return {
    config: configFromEnv(parsed, resolved.secrets, clientDir),
    generatedSecrets: resolved.generated,
    secretsFile: resolved.file,
  };
}

export type RotatableSecret = 'teamPassword' | 'adminPassword' | 'pinPepper';

/**
 * Replaces one stored secret with a new random value (`npm run admin -- rotate-secret`). Answers
 * whether the environment overrides it, in which case the file value is not the one in force.
 */
export async function rotateStoredSecret(env: Env, name: RotatableSecret): Promise<{ file: string; overriddenByEnv: boolean }> {
  const dataDir = path.resolve(env.DATA_DIR);
  const { file, secrets } = await resolveSecrets(env, dataDir);
  const fresh: Record<RotatableSecret, () => string> = {
    teamPassword: () => randomBytes(12).toString('base64url'),
    adminPassword: () => randomBytes(18).toString('base64url'),
    pinPepper: () => randomBytes(32).toString('base64url'),
  };
  const stored = { ...storedSecretsSchema.parse(JSON.parse(await readFile(file, 'utf8'))), qaPin: secrets.qaPin, [name]: fresh[name]() };
  await writeFile(file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  const envName = { teamPassword: env.TEAM_PASSWORD, adminPassword: env.ADMIN_PASSWORD, pinPepper: env.PIN_PEPPER }[name];
  return { file, overriddenByEnv: envName !== undefined };
}
