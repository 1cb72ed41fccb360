/**
 * `MemoryClient`: the agent-memory HTTP API through typed methods. Request and answer types are those
 * openapi-typescript generates from openapi/openapi.json at build time, so a method whose request or answer
 * no longer matches the API fails to compile. Every method throws `MemoryApiError` for an error answer;
 * `client.api` is the typed openapi-fetch client for any operation without a method of its own.
 */

import createClient, { type Client } from "openapi-fetch";

import { MemoryApiError } from "./errors.js";
import type { components, paths } from "./generated/agent-memory.js";
import { transport } from "./transport.js";

type Schemas = components["schemas"];
export type Memory = Schemas["MemoryOut"];
export type MemoryDetail = Schemas["MemoryDetail"];
export type MemorySummary = Schemas["MemorySummary"];
export type MemoryType = Schemas["MemoryType"];
export type RecallRequest = Schemas["RecallRequest"];
export type RecallResult = Schemas["RecallResult"];
export type RecallCandidate = Schemas["RecallCandidate"];
export type RememberRequest = Schemas["RememberRequest"];
export type IngestRequest = Schemas["IngestRequest"];
export type IngestMessage = Schemas["IngestMessage"];
export type IngestResult = Schemas["IngestResult"];
export type EditRequest = Schemas["EditRequest"];
export type Job = Schemas["JobOut"];
export type SummaryRequest = Schemas["SummaryRequest"];
export type Namespace = Schemas["NamespaceOut"];
export type NamespaceQuotas = Schemas["NamespaceQuotas"];
export type QuotaSettings = Schemas["QuotaSettings"];
export type Profile = Schemas["ProfileOut"];
export type SessionCreate = Schemas["SessionCreate"];
export type SessionInfo = Schemas["SessionInfo"];
export type MessageIn = Schemas["MessageIn"];
export type SessionMessage = Schemas["SessionMessage"];
export type History = Schemas["History"];
export type ImportResult = Schemas["ImportResult"];
export type ListMemoriesQuery = Omit<
  NonNullable<paths["/v1/namespaces/{namespace}/profiles/{profile}/memories"]["get"]["parameters"]["query"]>,
  "cursor" | "metadata"
> & {
  /** Only memories whose metadata has every key of this object with exactly its value. */
  metadata?: Record<string, unknown>;
};
export type HistoryQuery = NonNullable<
  paths["/v1/namespaces/{namespace}/profiles/{profile}/sessions/{session_id}/history"]["get"]["parameters"]["query"]
>;

export interface MemoryClientOptions {
  /** The server's root URL (not `/v1`). Default: `AGENT_MEMORY_URL`, else `http://127.0.0.1:8080`. */
  baseUrl?: string;
  /** Sent as `Authorization: Bearer …`. Default: `AGENT_MEMORY_API_KEY`; none on a server in open mode. */
  apiKey?: string;
  /** Per attempt, in milliseconds. Default: 30 000. */
  timeoutMs?: number;
  /** Retries of idempotent requests (GET, PUT, DELETE) after a 503 or a failed connection. Default: 2. */
  maxRetries?: number;
  /** A consistency token to start with (one another client saw), see `consistencyToken`. */
  consistencyToken?: string;
  /** Another fetch (a test's, a proxy-aware one). Default: the global fetch. */
  fetch?: typeof globalThis.fetch;
}

export const DEFAULT_BASE_URL = "http://127.0.0.1:8080";
type Problemish = { response: Response; error?: unknown };

/** The answer's data, or the error answer as a `MemoryApiError`. */
function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (!result.response.ok) throw MemoryApiError.from(result.response.status, result.error);
  return result.data as T;
}

function fail(result: Problemish): never {
  throw MemoryApiError.from(result.response.status, result.error);
}

function environment(name: string): string | undefined {
  const value = typeof process === "undefined" ? undefined : process.env[name];
  return value ? value : undefined;
}

export class MemoryClient {
  /** The typed openapi-fetch client, with this client's key, token, timeout and retries: every operation
   * of the API (`client.api.GET("/v1/namespaces/{namespace}/keys", …)`), answering `{ data, error }`. */
  readonly api: Client<paths>;
  readonly baseUrl: string;
  private readonly consistency: { token: string | undefined };

  constructor(options: MemoryClientOptions = {}) {
    this.baseUrl = (options.baseUrl ?? environment("AGENT_MEMORY_URL") ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
    this.consistency = { token: options.consistencyToken };
    this.api = createClient<paths>({
      baseUrl: this.baseUrl,
      fetch: transport({
        apiKey: options.apiKey ?? environment("AGENT_MEMORY_API_KEY"),
        timeoutMs: options.timeoutMs ?? 30_000,
        maxRetries: options.maxRetries ?? 2,
        fetch: options.fetch ?? globalThis.fetch,
        consistency: this.consistency,
      }),
    });
  }

  /** The latest `Agent-Memory-Consistency` token a write answered with (undefined until one did: a server
   * without read replicas sends none). Every later request carries it, so reads see this client's writes;
   * hand it to another client (`consistencyToken` option) for that one to see them too. */
  get consistencyToken(): string | undefined {
    return this.consistency.token;
  }

  /** One profile's memory and sessions. */
  profile(namespace: string, profile: string): ProfileMemory {
    return new ProfileMemory(this, namespace, profile);
  }

  /** Create a namespace; with `existOk`, one that exists already is answered instead of a 409. */
  async createNamespace(name: string, options: { existOk?: boolean } = {}): Promise<Namespace> {
    const result = await this.api.POST("/v1/namespaces", { body: { name } });
    if (result.response.status === 409 && options.existOk) return this.getNamespace(name);
    return unwrap(result);
  }

  async getNamespace(name: string): Promise<Namespace> {
    return unwrap(await this.api.GET("/v1/namespaces/{namespace}", { params: { path: { namespace: name } } }));
  }

  /** The namespace's quotas: each limit in force (null: none), where it comes from, and the usage now. */
  async getQuotas(name: string): Promise<NamespaceQuotas> {
    return unwrap(await this.api.GET("/v1/namespaces/{namespace}/quotas", { params: { path: { namespace: name } } }));
  }

  /** Set the namespace's own limits (the server's admin key only): one left null takes the server's default, 0 is no limit. */
  async setQuotas(name: string, limits: QuotaSettings): Promise<NamespaceQuotas> {
    return unwrap(
      await this.api.PUT("/v1/namespaces/{namespace}/quotas", { params: { path: { namespace: name } }, body: limits }),
    );
  }

  /** Every namespace the key may see, page after page. */
  async *namespaces(pageSize = 100): AsyncGenerator<Namespace> {
    let cursor: string | null | undefined;
    do {
      const page = unwrap(await this.api.GET("/v1/namespaces", { params: { query: { limit: pageSize, cursor } } }));
      yield* page.namespaces;
      cursor = page.cursor;
    } while (cursor);
  }

  /** Delete a namespace and everything in it (purged by the worker). */
  async deleteNamespace(name: string): Promise<void> {
    const result = await this.api.DELETE("/v1/namespaces/{namespace}", { params: { path: { namespace: name } } });
    if (!result.response.ok) fail(result);
  }

  /** Every profile of a namespace, page after page. */
  async *profiles(namespace: string, pageSize = 100): AsyncGenerator<Profile> {
    let cursor: string | null | undefined;
    do {
      const page = unwrap(
        await this.api.GET("/v1/namespaces/{namespace}/profiles", {
          params: { path: { namespace }, query: { limit: pageSize, cursor } },
        }),
      );
      yield* page.profiles;
      cursor = page.cursor;
    } while (cursor);
  }

  /** A namespace (or one profile of it) as NDJSON text, the format `importNamespace` takes. */
  async exportNamespace(namespace: string, options: { profile?: string } = {}): Promise<string> {
    const result = await this.api.GET("/v1/namespaces/{namespace}/export", {
      params: { path: { namespace }, query: { profile: options.profile } },
      parseAs: "text",
    });
    return unwrap(result);
  }

  /** Import NDJSON (an export) into a namespace: memories, sessions and messages, sent as they are. */
  async importNamespace(namespace: string, ndjson: string): Promise<ImportResult> {
    return unwrap(
      await this.api.POST("/v1/namespaces/{namespace}/import", {
        params: { path: { namespace } },
        body: ndjson,
        bodySerializer: (text: string) => text,
        headers: { "Content-Type": "application/x-ndjson" },
      }),
    );
  }
}

/** The operations on one profile (`client.profile(namespace, profile)`). A profile is made by its first
 * write; its namespace must exist. */
export class ProfileMemory {
  constructor(
    readonly client: MemoryClient,
    readonly namespace: string,
    readonly profile: string,
  ) {}

  private get where() {
    return { namespace: this.namespace, profile: this.profile };
  }

  private get api(): Client<paths> {
    return this.client.api;
  }

  /** Create the profile (answered as it is when it exists). */
  async put(): Promise<Profile> {
    return unwrap(
      await this.api.PUT("/v1/namespaces/{namespace}/profiles/{profile}", { params: { path: this.where } }),
    );
  }

  /** Store a conversation verbatim; the worker extracts memories from it (`waitForJob(result.jobId)`). */
  async ingest(request: IngestRequest): Promise<IngestResult> {
    return unwrap(
      await this.api.POST("/v1/namespaces/{namespace}/profiles/{profile}/ingest", {
        params: { path: this.where },
        body: request,
      }),
    );
  }

  /** Store one statement as a memory at once (no extraction). Content known already answers the existing
   * memory; content this profile deleted throws 409 `memory_forgotten` unless `restore: true`. */
  async remember(request: RememberRequest | string): Promise<Memory> {
    const body = typeof request === "string" ? { content: request } : request;
    return unwrap(
      await this.api.POST("/v1/namespaces/{namespace}/profiles/{profile}/remember", {
        params: { path: this.where },
        body,
      }),
    );
  }

  /** The memories that answer a question, best first, and an answer written from them. */
  async recall(request: RecallRequest | string): Promise<RecallResult> {
    const body = typeof request === "string" ? { query: request } : request;
    return unwrap(
      await this.api.POST("/v1/namespaces/{namespace}/profiles/{profile}/recall", {
        params: { path: this.where },
        body,
      }),
    );
  }

  /** One page of memories, newest first; pass the page's `cursor` back for the next. */
  async listMemories(
    query: ListMemoriesQuery & { cursor?: string | null } = {},
  ): Promise<Schemas["MemoryList"]> {
    const { metadata, ...rest } = query;
    return unwrap(
      await this.api.GET("/v1/namespaces/{namespace}/profiles/{profile}/memories", {
        params: {
          path: this.where,
          query: { ...rest, metadata: metadata === undefined ? undefined : JSON.stringify(metadata) },
        },
      }),
    );
  }

  /** Every memory that `listMemories` would list, page after page. */
  async *memories(query: ListMemoriesQuery = {}): AsyncGenerator<MemorySummary> {
    let cursor: string | null | undefined;
    do {
      const page = await this.listMemories({ ...query, cursor });
      yield* page.memories;
      cursor = page.cursor;
    } while (cursor);
  }

  /** One memory, with the messages it came from. */
  async getMemory(memoryId: string): Promise<MemoryDetail> {
    return unwrap(
      await this.api.GET("/v1/namespaces/{namespace}/profiles/{profile}/memories/{memory_id}", {
        params: { path: { ...this.where, memory_id: memoryId } },
      }),
    );
  }

  async editMemory(memoryId: string, edit: EditRequest): Promise<Memory> {
    return unwrap(
      await this.api.PATCH("/v1/namespaces/{namespace}/profiles/{profile}/memories/{memory_id}", {
        params: { path: { ...this.where, memory_id: memoryId } },
        body: edit,
      }),
    );
  }

  /** Delete a memory and the messages only it cites; it leaves a tombstone, so re-sending the same
   * conversation does not bring it back. Answers the deleted memory; deleting again answers it again. */
  async deleteMemory(memoryId: string): Promise<Memory> {
    return unwrap(
      await this.api.DELETE("/v1/namespaces/{namespace}/profiles/{profile}/memories/{memory_id}", {
        params: { path: { ...this.where, memory_id: memoryId } },
      }),
    );
  }

  /** A Markdown summary of what the profile holds (or of one session). */
  async getSummary(request: SummaryRequest = {}): Promise<string> {
    const result = unwrap(
      await this.api.POST("/v1/namespaces/{namespace}/profiles/{profile}/summary", {
        params: { path: this.where },
        body: request,
      }),
    );
    return result.summary;
  }

  async getJob(jobId: string): Promise<Job> {
    return unwrap(
      await this.api.GET("/v1/namespaces/{namespace}/profiles/{profile}/jobs/{job_id}", {
        params: { path: { ...this.where, job_id: jobId } },
      }),
    );
  }

  /** Poll a job until it is done or failed (an ingest's extraction); throws after `timeoutMs`. */
  async waitForJob(jobId: string, options: { timeoutMs?: number; intervalMs?: number } = {}): Promise<Job> {
    const deadline = Date.now() + (options.timeoutMs ?? 60_000);
    for (;;) {
      const job = await this.getJob(jobId);
      if (job.status !== "queued" && job.status !== "running") return job;
      if (Date.now() > deadline) throw new Error(`job ${jobId} still ${job.status} after the timeout`);
      await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 200));
    }
  }

  /** Create a session beforehand (a session is also made by its first message). */
  async createSession(session: SessionCreate = {}): Promise<SessionInfo> {
    return unwrap(
      await this.api.POST("/v1/namespaces/{namespace}/profiles/{profile}/sessions", {
        params: { path: this.where },
        body: session,
      }),
    );
  }

  /** Every session of the profile, page after page. */
  async *sessions(pageSize = 100): AsyncGenerator<SessionInfo> {
    let cursor: string | null | undefined;
    do {
      const page = unwrap(
        await this.api.GET("/v1/namespaces/{namespace}/profiles/{profile}/sessions", {
          params: { path: this.where, query: { limit: pageSize, cursor } },
        }),
      );
      yield* page.sessions;
      cursor = page.cursor;
    } while (cursor);
  }

  /** Append a message (AI SDK UIMessage parts) to a session, after `parentId` or the latest leaf. */
  async appendMessage(sessionId: string, message: MessageIn, options: { parentId?: string } = {}) {
    return unwrap(
      await this.api.POST("/v1/namespaces/{namespace}/profiles/{profile}/sessions/{session_id}/messages", {
        params: { path: { ...this.where, session_id: sessionId } },
        body: { message, parentId: options.parentId },
      }),
    );
  }

  /** The session's messages root → leaf, compactions applied. */
  async getHistory(sessionId: string, query: HistoryQuery = {}): Promise<History> {
    return unwrap(
      await this.api.GET("/v1/namespaces/{namespace}/profiles/{profile}/sessions/{session_id}/history", {
        params: { path: { ...this.where, session_id: sessionId }, query },
      }),
    );
  }

  /** Delete a session with its messages and the memories extracted from them. */
  async deleteSession(sessionId: string): Promise<void> {
    const result = await this.api.DELETE("/v1/namespaces/{namespace}/profiles/{profile}/sessions/{session_id}", {
      params: { path: { ...this.where, session_id: sessionId } },
    });
    if (!result.response.ok) fail(result);
  }
}
