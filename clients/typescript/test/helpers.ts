/**
 * What the tests share: the live server they run against (from the environment pytest sets), a namespace
 * of their own per run, a loopback HTTP server for answers the real one does not give (a 503, a
 * consistency token, no answer), and a language model that answers from a script.
 */

import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

import { MockLanguageModelV3 } from "ai/test";

import { MemoryClient } from "../src/index.js";

export function live(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: the tests run against a live server (tests/clients/test_typescript.py)`);
  return value;
}

export const SERVER_URL = live("AGENT_MEMORY_URL");
export const ADMIN_KEY = live("AGENT_MEMORY_API_KEY");

/** A namespace name no other run uses (namespaces: a-z, 0-9, '-', at most 32). */
export function uniqueNamespace(prefix: string): string {
  return `${prefix}-${randomBytes(5).toString("hex")}`;
}

export function adminClient(): MemoryClient {
  return new MemoryClient({ baseUrl: SERVER_URL, apiKey: ADMIN_KEY });
}

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

/** A real HTTP server on a free loopback port, answering with `handler`; `requests` keeps what came in. */
export async function loopbackServer(handler: Handler) {
  const requests: { method: string; url: string; headers: IncomingMessage["headers"]; body: string }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      requests.push({ method: request.method ?? "", url: request.url ?? "", headers: request.headers, body });
      handler(request, body, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type GenerateOptions = Parameters<MockLanguageModelV3["doGenerate"]>[0];
type Content = Awaited<ReturnType<MockLanguageModelV3["doGenerate"]>>["content"];
export type Prompt = GenerateOptions["prompt"];
/** One step of the script: what the model says, given the prompt so far (tool results included). */
export type Step = (prompt: Prompt) => Content;

/** A language model (the AI SDK's own mock) that answers each call with the next step of a script. */
export function scriptedModel(...steps: Step[]): MockLanguageModelV3 {
  let next = 0;
  return new MockLanguageModelV3({
    doGenerate: async (options) => {
      const step = steps[next++];
      if (!step) throw new Error(`the model was called ${next} times; the script has ${steps.length} steps`);
      const content = step(options.prompt);
      const calls = content.some((part) => part.type === "tool-call");
      return {
        content,
        finishReason: { unified: calls ? "tool-calls" : "stop", raw: undefined },
        usage: {
          inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 5, text: 5, reasoning: undefined },
        },
        warnings: [],
      };
    },
  });
}

export function toolCall(toolName: string, input: unknown, toolCallId = `call-${toolName}`): Content[number] {
  return { type: "tool-call", toolCallId, toolName, input: JSON.stringify(input) };
}

export function text(value: string): Content[number] {
  return { type: "text", text: value };
}

/** The output of the latest tool result in the prompt: what the AI SDK sent back to the model. */
export function lastToolOutput(prompt: Prompt): { type: string; value: unknown } {
  for (const message of [...prompt].reverse()) {
    if (message.role !== "tool") continue;
    for (const part of [...message.content].reverse()) {
      if (part.type === "tool-result") return part.output as { type: string; value: unknown };
    }
  }
  throw new Error("no tool result in the prompt");
}
