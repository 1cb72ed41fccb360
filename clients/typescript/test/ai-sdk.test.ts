/**
 * The AI SDK tools, executed by the AI SDK itself: `generateText` with a scripted `MockLanguageModelV3`
 * (from `ai/test`) that emits tool calls; the SDK validates their input, runs the tools against the live
 * server and hands the results back to the model, which reads them from its prompt. First the example of
 * docs/integrations/ai-sdk.md as it is written there, then each tool.
 */

import assert from "node:assert/strict";
import { test } from "node:test";

import { generateText, stepCountIs } from "ai";

import { memoryTools } from "../src/ai-sdk.js";
import { chat } from "./examples/ai-sdk.js";
import { adminClient, lastToolOutput, scriptedModel, text, toolCall, uniqueNamespace } from "./helpers.js";

test("the AI SDK page's example: remembered in one conversation, recalled in the next", async () => {
  const user = uniqueNamespace("sam"); // a profile of the example's `demo` namespace, new for this run
  const told = await chat(
    scriptedModel(
      () => [toolCall("remember", { content: "The user is vegetarian." })],
      (prompt) => {
        const output = lastToolOutput(prompt);
        assert.equal(output.type, "json");
        return [text(`Noted: ${(output.value as { summary: string }).summary}`)];
      },
    ),
    user,
    "I'm vegetarian, remember that.",
  );
  assert.match(told, /^Noted: .*vegetarian/i);
  const memories = [];
  for await (const memory of adminClient().profile("demo", user).memories()) memories.push(memory.summary);
  assert.equal(memories.length, 1);
  assert.match(memories[0] ?? "", /vegetarian/i);

  // A new conversation: nothing of the first is in the prompt; the model recalls it through the tool.
  const answered = await chat(
    scriptedModel(
      (prompt) => {
        assert.ok(!JSON.stringify(prompt).includes("remember that"));
        return [toolCall("recall", { query: "Is the user vegetarian?" })];
      },
      (prompt) => {
        const { answer, memories } = lastToolOutput(prompt).value as { answer: string; memories: { summary: string }[] };
        assert.ok(memories.length > 0, "recall returned nothing");
        return [text(`From memory: ${memories[0]?.summary} (${answer})`)];
      },
    ),
    user,
    "Which restaurant suits me?",
  );
  assert.match(answered, /^From memory: .*vegetarian/i);
});

test("remember, recall and forget through generateText; a refused call is the model's tool error", async () => {
  const client = adminClient();
  const namespace = uniqueNamespace("ts-tools");
  await client.createNamespace(namespace);
  const tools = memoryTools({ client, namespace, profile: "dee", sessionId: "onboarding", recall: { limit: 3 } });
  let forgottenId = "";

  const result = await generateText({
    model: scriptedModel(
      () => [
        toolCall("remember", { content: "Dee is allergic to peanuts." }, "c1"),
        toolCall("remember", { content: "Dee prefers trains to planes." }, "c2"),
      ],
      () => [toolCall("recall", { query: "What is Dee allergic to?" })],
      (prompt) => {
        const { memories } = lastToolOutput(prompt).value as { memories: { id: string; summary: string }[] };
        assert.match(memories[0]?.summary ?? "", /peanuts/);
        assert.ok(memories.length <= 3); // the tools' recall settings apply
        forgottenId = memories[0]?.id ?? "";
        return [toolCall("forget", { memoryId: forgottenId })];
      },
      (prompt) => {
        assert.deepEqual(lastToolOutput(prompt).value, {
          forgotten: forgottenId,
          summary: "Dee is allergic to peanuts.",
        });
        return [toolCall("forget", { memoryId: "01ARZ3NDEKTSV4RRFFQ69G5FAV" })]; // no such memory
      },
      (prompt) => {
        const output = lastToolOutput(prompt);
        assert.equal(output.type, "error-text");
        assert.match(String(output.value), /^404 memory_not_found: /);
        return [toolCall("remember", { content: "" })]; // refused by the tool's input schema, not sent
      },
      (prompt) => {
        assert.equal(lastToolOutput(prompt).type, "error-text");
        return [text("Done.")];
      },
    ),
    tools,
    prompt: "Onboard Dee.",
    stopWhen: stepCountIs(10),
  });
  assert.equal(result.text, "Done.");
  const calls = result.steps.flatMap((step) => step.toolCalls.map((call) => call.toolName));
  assert.deepEqual(calls, ["remember", "remember", "recall", "forget", "forget", "remember"]);
  const errors = result.steps.flatMap((step) => step.content.filter((part) => part.type === "tool-error"));
  assert.equal(errors.length, 2);

  // What the tools did is in the service: one memory left, attributed to the session; the other forgotten.
  const dee = client.profile(namespace, "dee");
  const left = [];
  for await (const memory of dee.memories()) left.push(memory);
  assert.deepEqual(
    left.map((m) => [m.summary, m.sessionId]),
    [["Dee prefers trains to planes.", "onboarding"]],
  );
  const recalled = await dee.recall({ query: "What is Dee allergic to?", minScore: 0 });
  assert.ok(!recalled.candidates.some((c) => c.id === forgottenId));
});
