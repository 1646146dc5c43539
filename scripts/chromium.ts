/**
 * The one Chromium launcher of the browser tests (e2e/) and the benchmark (bench/).
 *
 * Exported API (kept stable for both users):
 * - `CHROMIUM_ARGS`: the flags of every launch. No sandbox (CI runs as root), no GPU, and none of
 *   Chromium's background connections, which the closed network refuses.
 * - `chromiumExecutable(): Promise<ChromiumExecutable>`: which Chromium to run, as
 *   `{ path, source, env }`. `env` holds the variables the browser needs on top of the caller's own
 *   (empty except for the bundled copy); launch through `launchChromium` unless you pass it yourself.
 * - `launchChromium(options?): Promise<Browser>`: a headless playwright-core Browser on that
 *   Chromium. `options` are playwright-core's LaunchOptions but `executablePath`; their `args` are
 *   added after `CHROMIUM_ARGS` and their `env` over the process's own. Logs one stderr line per
 *   process when the bundled copy runs, so a test log shows which browser ran.
 *
 * The Chromium, in this order:
 * 1. `CHROMIUM_PATH` when it is set and the file exists. Set but missing, the bundled copy is used
 *    (and said so once on stderr): `CHROMIUM_PATH=/nonexistent` forces the bundled copy.
 * 2. `/usr/bin/chromium` (Debian's `chromium` package) when present.
 * 3. The headless shell shipped in the `@sparticuz/chromium` dev dependency, so `npm install` is
 *    all the browser tests need. Nothing is downloaded: the first use unpacks the package's own
 *    files (about 5 s, 215 MB) into node_modules/.cache/biggy-chromium/<version>/ and later
 *    uses reuse them. That copy brings the NSS and expat libraries it needs and the Open Sans font,
 *    which is all the text a machine without fonts gets; the system's fonts are used when present.
 *    It still needs glibc 2.34 or later, libgcc_s and libsqlite3 (Debian: libsqlite3-0) from the
 *    system.
 */
import { execFile } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createBrotliDecompress } from 'node:zlib';
import { chromium, type Browser, type LaunchOptions } from 'playwright-core';

export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface ChromiumExecutable {
  path: string;
  /** `CHROMIUM_PATH`, Debian's package at /usr/bin/chromium, or the copy unpacked from @sparticuz/chromium. */
  source: 'CHROMIUM_PATH' | 'system' | 'bundled';
  /** Variables the browser needs on top of the caller's environment. */
  env: Record<string, string>;
}

const SYSTEM_CHROMIUM = '/usr/bin/chromium';
const ROOT = path.resolve(import.meta.dirname, '..');
const CACHE_DIR = path.join(ROOT, 'node_modules', '.cache', 'biggy-chromium');
const STAGING_MARK = '.unpacking-';
const execFileAsync = promisify(execFile);

let resolved: Promise<ChromiumExecutable> | undefined;

/** Which Chromium to run; resolved (and the bundled copy unpacked) once per process. */
export function chromiumExecutable(): Promise<ChromiumExecutable> {
  resolved ??= resolveExecutable();
  return resolved;
}

async function resolveExecutable(): Promise<ChromiumExecutable> {
  const requested = process.env.CHROMIUM_PATH;
  if (requested !== undefined && requested !== '') {
    if (existsSync(requested)) return { path: requested, source: 'CHROMIUM_PATH', env: {} };
    process.stderr.write(`chromium: CHROMIUM_PATH=${requested} does not exist; using the Chromium bundled in @sparticuz/chromium\n`);
    return bundledChromium();
  }
  if (existsSync(SYSTEM_CHROMIUM)) return { path: SYSTEM_CHROMIUM, source: 'system', env: {} };
  return bundledChromium();
}

let announced = false;

/** A headless Chromium with `CHROMIUM_ARGS` (and `options.args` after them). */
export async function launchChromium(options: Omit<LaunchOptions, 'executablePath'> = {}): Promise<Browser> {
  const executable = await chromiumExecutable();
  let browser: Browser;
  try {
    browser = await chromium.launch({
      headless: true,
      ...options,
      executablePath: executable.path,
      args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
      env: { ...process.env, ...executable.env, ...options.env },
    });
  } catch (error) {
    if (executable.source !== 'bundled') throw error;
    // Playwright's message carries the browser's own (a missing shared library, say); this adds what to do.
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`the Chromium bundled in @sparticuz/chromium did not start: it needs libsqlite3-0 from the system; or install Debian's chromium, or set CHROMIUM_PATH.\n${reason}`, { cause: error });
  }
  if (executable.source === 'bundled' && !announced) {
    announced = true;
    process.stderr.write(`chromium: bundled headless shell ${browser.version()} at ${executable.path}\n`);
  }
  return browser;
}

function bundlePaths(): { binDir: string; version: string } {
  let entry: string;
  try {
    entry = createRequire(import.meta.url).resolve('@sparticuz/chromium');
  } catch (error) {
    throw new Error(`no Chromium: ${SYSTEM_CHROMIUM} is missing and so is the dev dependency @sparticuz/chromium (npm install, or set CHROMIUM_PATH)`, { cause: error });
  }
  // The package exports only its entry point (build/cjs or build/esm); its files sit in bin/ beside build/.
  const packageDir = path.resolve(path.dirname(entry), '..', '..');
  const manifest: unknown = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
  const version = typeof manifest === 'object' && manifest !== null && 'version' in manifest && typeof manifest.version === 'string' ? manifest.version : 'unknown';
  return { binDir: path.join(packageDir, 'bin'), version };
}

/**
 * The package's own `executablePath()` is not used: it returns any /tmp/chromium it finds (another
 * version, another user's file, or a half-written one from an interrupted run) and two test
 * processes unpacking at once write the same file. Here each version is unpacked into a private
 * directory that is renamed into place when complete, so a reader only ever sees a whole copy.
 */
async function bundledChromium(): Promise<ChromiumExecutable> {
  const { binDir, version } = bundlePaths();
  const target = path.join(CACHE_DIR, version);
  if (!existsSync(target)) await unpack(binDir, target);
  return {
    path: path.join(target, 'chromium'),
    source: 'bundled',
    env: {
      // The libraries come from Amazon Linux 2023 (the package's target), where this binary was tested with them.
      LD_LIBRARY_PATH: [path.join(target, 'lib'), process.env.LD_LIBRARY_PATH].filter((entry) => entry !== undefined && entry !== '').join(':'),
      FONTCONFIG_FILE: path.join(target, 'fonts.conf'),
    },
  };
}

async function unpack(binDir: string, target: string): Promise<void> {
  await mkdir(CACHE_DIR, { recursive: true });
  await removeAbandonedStaging();
  const staging = path.join(CACHE_DIR, `${STAGING_MARK}${process.pid}-${Date.now()}`);
  await mkdir(staging);
  try {
    await pipeline(createReadStream(path.join(binDir, 'chromium.br')), createBrotliDecompress(), createWriteStream(path.join(staging, 'chromium'), { mode: 0o755 }));
    // swiftshader: the GL libraries the binary loads from its own directory; al2023: lib/ with NSS and expat.
    await Promise.all(['fonts.tar.br', 'swiftshader.tar.br', 'al2023.tar.br'].map((archive) => untar(path.join(binDir, archive), staging)));
    // The package's fonts.conf names /tmp/fonts; this one keeps the system's fonts and adds Open Sans.
    await writeFile(
      path.join(staging, 'fonts.conf'),
      [
        '<?xml version="1.0"?>',
        '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
        '<fontconfig>',
        '  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>',
        `  <dir>${path.join(target, 'fonts')}</dir>`,
        `  <cachedir>${path.join(target, 'fonts-cache')}</cachedir>`,
        '</fontconfig>',
        '',
      ].join('\n'),
    );
    await rename(staging, target);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    // Another process finished first: its copy is as good as ours.
    if (existsSync(target)) return;
    throw error;
  }
}

/** Through a file, not a pipe: tar stops reading at the archive's end marker, which breaks a pipe. */
async function untar(archive: string, into: string): Promise<void> {
  const tarFile = path.join(into, `${path.basename(archive, '.br')}.partial`);
  await pipeline(createReadStream(archive), createBrotliDecompress(), createWriteStream(tarFile));
  // tar is part of every Debian install.
  await execFileAsync('tar', ['-x', '--no-same-owner', '-C', into, '-f', tarFile]);
  await rm(tarFile);
}

/** Half-unpacked copies of processes that were killed while unpacking (200 MB each). */
async function removeAbandonedStaging(): Promise<void> {
  for (const entry of await readdir(CACHE_DIR)) {
    if (!entry.startsWith(STAGING_MARK)) continue;
    const pid = Number(entry.slice(STAGING_MARK.length).split('-')[0]);
    if (Number.isInteger(pid) && pid > 0 && isRunning(pid)) continue;
    await rm(path.join(CACHE_DIR, entry), { recursive: true, force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}
