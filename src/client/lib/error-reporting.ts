import type { ErrorReport, ErrorType, Severity } from '../../common/contract/error-reports';
import { ERROR_REPORT_LIMITS } from '../../common/limits';
import { errorReportRoutes } from '../../common/api/error-reports';
import { api } from './api-client';

const recent = new Map<string, number>();
const DUPLICATE_WINDOW_MS = 5_000;
const MAX_PER_MINUTE = 10;
let windowStart = 0;
let sentInWindow = 0;

function clip(text: string | undefined, max: number): string | undefined {
  if (text === undefined) return undefined;
  return text.length > max ? text.slice(0, max) : text;
}

/**
 * Posts a client error to the log silently. A render loop can throw hundreds of
 * times a second, so identical reports within 5 s are dropped and at most 10 go out a minute;
 * fields are trimmed to the server's bounds so a real report is never refused for size.
 */
export function reportClientError(errorType: ErrorType, error: unknown, severity: Severity = 'high'): void {
  const message = messageOf(error);
  const now = Date.now();
  const key = `${errorType}:${message}`;
  const last = recent.get(key);
  if (last !== undefined && now - last < DUPLICATE_WINDOW_MS) return;
  recent.set(key, now);
  if (now - windowStart > 60_000) {
    windowStart = now;
    sentInWindow = 0;
  }
  if (sentInWindow >= MAX_PER_MINUTE) return;
  sentInWindow += 1;

  const report: ErrorReport = {
    source: 'frontend',
    errorType,
    message: clip(message, ERROR_REPORT_LIMITS.message) ?? 'Unknown error',
    stack: clip(error instanceof Error ? error.stack : undefined, ERROR_REPORT_LIMITS.stack),
    userAgent: clip(navigator.userAgent, ERROR_REPORT_LIMITS.userAgent),
    url: clip(window.location.href, ERROR_REPORT_LIMITS.url),
    severity,
  };
  api(errorReportRoutes.create, { body: report }, { keepalive: true }).catch(() => {
    // Reporting must never raise a new error of its own.
  });
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message.trim() === '' ? error.name : error.message;
  if (typeof error === 'string' && error.trim() !== '') return error;
  try {
    // JSON.stringify returns undefined for undefined and functions, whatever its typing says.
    const text = JSON.stringify(error) as string | undefined;
    return text ?? 'Unknown error';
  } catch {
    return 'Unknown error';
  }
}

/** Uncaught errors and unhandled rejections go to the log with severity high. */
export function installGlobalErrorHandlers(): () => void {
  const onError = (event: ErrorEvent) => {
    reportClientError('javascript_error', event.error ?? event.message, 'high');
  };
  const onRejection = (event: PromiseRejectionEvent) => {
    reportClientError('unhandled_promise_rejection', event.reason, 'high');
  };
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);
  return () => {
    window.removeEventListener('error', onError);
    window.removeEventListener('unhandledrejection', onRejection);
  };
}
