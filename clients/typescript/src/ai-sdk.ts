/**
 * Memory as AI SDK tools (`ai` 6): `remember`, `recall` and `forget` for one profile, for `generateText` /
 * `streamText` / an `Agent` to call. They call the API and hold no rule of their own: what counts as known
 * content, how recall ranks and what a deletion removes are the server's. An error answer is thrown as a
 * `MemoryApiError`, which the AI SDK hands to the model as the tool's error ("404 memory_not_found: …").
 */

import { tool } from "ai";
import { z } from "zod";

import { MemoryClient, type ProfileMemory, type RecallRequest } from "./client.js";

export interface MemoryToolsOptions {
  namespace: string;
  profile: string;
  /** Default: a `MemoryClient` from `AGENT_MEMORY_URL` and `AGENT_MEMORY_API_KEY`. */
  client?: MemoryClient;
  /** The session `remember` attributes its memories to (deleting that session deletes them too). */
  sessionId?: string;
  /** Settings of every recall: `limit`, `minScore`, `thinkingLevel`, `responseLength`, `metadata`… */
  recall?: Omit<RecallRequest, "query">;
}

/** What the `recall` tool returns to the model: the server's answer and the memories it came from. */
export interface RecalledMemories {
  answer: string;
  memories: { id: string; type: string; summary: string; score: number; eventTime?: string | null }[];
}

const rememberInput = z.object({
  content: z.string().min(1).describe("One self-contained statement to keep, e.g. 'The user is vegetarian.'"),
});
const recallInput = z.object({
  query: z.string().min(1).describe("A question about the user or past conversations, in the user's words."),
});
const forgetInput = z.object({
  memoryId: z.string().min(1).describe("The id of a memory, as `recall` returned it."),
});

/** The three tools for one profile: spread them into `tools` (`tools: { ...memoryTools(…), … }`). */
export function memoryTools(options: MemoryToolsOptions) {
  const memory: ProfileMemory = (options.client ?? new MemoryClient()).profile(options.namespace, options.profile);
  return {
    remember: tool({
      description:
        "Save a lasting fact, preference, instruction or event about the user to long-term memory, " +
        "so it can be recalled in later conversations.",
      inputSchema: rememberInput,
      execute: async ({ content }) => {
        const saved = await memory.remember({ content, sessionId: options.sessionId });
        return { id: saved.id, type: saved.type, summary: saved.summary };
      },
    }),
    recall: tool({
      description:
        "Search long-term memory for what is known about the user: facts, preferences, instructions and " +
        "past events. Returns an answer and the memories it is based on (empty when nothing relevant is known).",
      inputSchema: recallInput,
      execute: async ({ query }): Promise<RecalledMemories> => {
        const result = await memory.recall({ ...options.recall, query });
        return {
          answer: result.answer,
          memories: result.candidates.map((c) => ({
            id: c.id,
            type: c.type,
            summary: c.summary,
            score: c.score,
            eventTime: c.eventTime,
          })),
        };
      },
    }),
    forget: tool({
      description:
        "Delete a memory that is wrong or that the user asked to forget, by the id `recall` gave. " +
        "It stays forgotten: the same content is not learned again from old messages.",
      inputSchema: forgetInput,
      execute: async ({ memoryId }) => {
        const deleted = await memory.deleteMemory(memoryId);
        return { forgotten: deleted.id, summary: deleted.summary };
      },
    }),
  };
}
