/**
 * @agent-memory/client: a typed fetch client for agent-memory. AI SDK tools are in
 * `@agent-memory/client/ai-sdk`.
 */

export * from "./client.js";
export { MemoryApiError, MemoryConnectionError, type Problem } from "./errors.js";
export { CONSISTENCY_HEADER } from "./transport.js";
export type { components, paths } from "./generated/agent-memory.js";
