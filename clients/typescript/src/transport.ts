/**
 * What every request goes through, whichever method sent it (the typed methods or the raw `api` client):
 * the API key, the consistency token, a timeout per attempt, and retries of idempotent requests when the
 * server is unavailable (503) or cannot be reached.
 */

import { MemoryConnectionError } from "./errors.js";

/** The response header a write answers with when the server reads from replicas (its position in the
 * primary's log), and the request header that carries it back: a read sent with it is served by a replica
 * that has that write, so a recall right after a remember finds it. The token is opaque. */
export const CONSISTENCY_HEADER = "Agent-Memory-Consistency";

// Methods that may be sent twice with the same effect. POST never is retried: a remember or an append
// sent again after a lost answer is the server's to deduplicate, not the client's to guess.
const IDEMPOTENT = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);
// A server that says when to come back is believed up to this long.
const MAX_RETRY_AFTER_MS = 10_000;

export interface TransportOptions {
  apiKey: string | undefined;
  timeoutMs: number;
  maxRetries: number;
  fetch: typeof globalThis.fetch;
  /** The latest consistency token seen, shared with the client that owns it. */
  consistency: { token: string | undefined };
}

export function transport(options: TransportOptions): (request: Request) => Promise<Response> {
  return async (request: Request): Promise<Response> => {
    const retries = IDEMPOTENT.has(request.method) ? options.maxRetries : 0;
    for (let attempt = 0; ; attempt++) {
      // A fresh copy per attempt: a body, once sent, cannot be read again.
      const sent = request.clone();
      if (options.apiKey) sent.headers.set("Authorization", `Bearer ${options.apiKey}`);
      if (options.consistency.token) sent.headers.set(CONSISTENCY_HEADER, options.consistency.token);
      const signal = AbortSignal.any([request.signal, AbortSignal.timeout(options.timeoutMs)]);
      let response: Response;
      try {
        response = await options.fetch(sent, { signal });
      } catch (error) {
        if (request.signal.aborted) throw error; // the caller's own abort is not ours to retry or wrap
        if (attempt < retries) {
          await sleep(backoff(attempt));
          continue;
        }
        throw new MemoryConnectionError(request.url, error);
      }
      const token = response.headers.get(CONSISTENCY_HEADER);
      if (token) options.consistency.token = token;
      if (response.status === 503 && attempt < retries) {
        await response.body?.cancel();
        await sleep(retryAfter(response) ?? backoff(attempt));
        continue;
      }
      return response;
    }
  };
}

/** 0.25 s, 0.5 s, 1 s… with up to a quarter of jitter, so clients that failed together do not return
 * together. */
function backoff(attempt: number): number {
  const base = 250 * 2 ** attempt;
  return base + Math.random() * base * 0.25;
}

function retryAfter(response: Response): number | undefined {
  const value = response.headers.get("Retry-After");
  if (value === null) return undefined;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, MAX_RETRY_AFTER_MS) : undefined;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
