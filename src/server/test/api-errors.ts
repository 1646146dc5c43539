import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { apiErrorSchema, type ApiError } from '../../common/contract/common.js';

/** Asserts an API error answer: its status, its code and, when given, its exact message. */
export function expectApiError(response: LightMyRequestResponse, status: number, code: string, message?: string): ApiError {
  expect(response.statusCode, response.body).toBe(status);
  const body = apiErrorSchema.parse(response.json());
  expect(body.code, response.body).toBe(code);
  if (message !== undefined) expect(body.message).toBe(message);
  return body;
}
