/**
 * Writes a signed-in member sends carry `Idempotency-Key: <random>`; a retry of the same write
 * carries the same key and gets the first answer (marked by the replay header) instead of doing it
 * twice. Plain values: the client's one fetch helper sends the header, the server checks it.
 */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_REPLAYED_HEADER = 'idempotent-replayed';
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_.:-]{8,128}$/;
