/**
 * The errors the client throws: one class for every answer the server refused (its problem+json body:
 * `status`, `code`, `detail`), one for a server that could not be reached or did not answer in time.
 */

/** A problem+json body (RFC 9457) as the server sends it; validation errors add `errors`. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  [extra: string]: unknown;
}

/** The server answered with an error status. `code` is the server's stable, machine-readable reason
 * (`memory_not_found`, `unauthorized`, `validation_failed`…); `detail` says it for a person. An answer
 * that is not problem+json (a proxy's HTML page) still becomes one: `code` is `http_<status>` and `detail`
 * the start of its text. */
export class MemoryApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  /** The whole problem body, extra members included (`errors` of a 422). */
  readonly problem: Problem;

  constructor(problem: Problem) {
    super(`${problem.status} ${problem.code}: ${problem.detail}`);
    this.name = "MemoryApiError";
    this.status = problem.status;
    this.code = problem.code;
    this.detail = problem.detail;
    this.problem = problem;
  }

  /** The error for an answer with status `status` whose body was parsed to `body` (JSON or text). */
  static from(status: number, body: unknown): MemoryApiError {
    if (isProblem(body)) return new MemoryApiError({ ...body, status });
    const text = typeof body === "string" ? body : body === undefined ? "" : JSON.stringify(body);
    return new MemoryApiError({
      type: "about:blank",
      title: `HTTP ${status}`,
      status,
      code: `http_${status}`,
      detail: text.slice(0, 500) || `HTTP ${status} without a body`,
    });
  }
}

/** The server could not be reached, or did not answer within the client's timeout. */
export class MemoryConnectionError extends Error {
  readonly url: string;

  constructor(url: string, cause: unknown) {
    const reason = cause instanceof Error ? describe(cause) : String(cause);
    super(`cannot reach agent-memory at ${url}: ${reason}`, { cause });
    this.name = "MemoryConnectionError";
    this.url = url;
  }
}

function isProblem(body: unknown): body is Problem {
  return (
    typeof body === "object" &&
    body !== null &&
    typeof (body as Problem).code === "string" &&
    typeof (body as Problem).detail === "string"
  );
}

/** fetch's own message is "fetch failed"; the reason (ECONNREFUSED, a timeout) is in its cause. */
function describe(error: Error): string {
  if (error.name === "TimeoutError") return "no answer within the timeout";
  const cause = (error as Error & { cause?: unknown }).cause;
  if (cause instanceof Error) return `${error.message} (${cause.message})`;
  return error.message;
}
