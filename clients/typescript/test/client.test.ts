/**
 * The client against a live `agent-memory serve` (started with an admin key by
 * tests/clients/test_typescript.py): every method it has, its errors, pagination, a namespace key; and,
 * against a loopback server for the answers the real one does not give on demand, retries, the timeout
 * and the consistency token.
 */

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

import { CONSISTENCY_HEADER, MemoryApiError, MemoryClient, MemoryConnectionError } from "../src/index.js";
import { ADMIN_KEY, SERVER_URL, adminClient, loopbackServer, uniqueNamespace } from "./helpers.js";

const here = dirname(fileURLToPath(import.meta.url));

async function rejects(promise: Promise<unknown>, status: number, code: string): Promise<MemoryApiError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof MemoryApiError, `expected a MemoryApiError, got ${String(error)}`);
    assert.equal(error.status, status, error.message);
    assert.equal(error.code, code, error.message);
    assert.ok(error.detail.length > 0);
    assert.equal(error.message, `${status} ${code}: ${error.detail}`);
    return error;
  }
  assert.fail(`expected ${status} ${code}, the call succeeded`);
}

test("the TypeScript client page's example runs as written, twice", async () => {
  const script = join(here, "examples", "typescript-client.js");
  const env = { ...process.env, AGENT_MEMORY_URL: SERVER_URL, AGENT_MEMORY_API_KEY: ADMIN_KEY };
  for (let run = 0; run < 2; run++) {
    const { stdout } = await promisify(execFile)(process.execPath, [script], { env, timeout: 120_000 });
    assert.match(stdout, /Tokyo/); // the recall answer and its candidate
    assert.match(stdout, /Always answer in British English\./); // the instructions listed
    assert.match(stdout, /404 memory_not_found/);
  }
});

test("memory operations: remember, recall, list every page, get, edit, delete, summary", async () => {
  const client = adminClient();
  const namespace = uniqueNamespace("ts-memory");
  const created = await client.createNamespace(namespace);
  assert.equal(created.name, namespace);
  await rejects(client.createNamespace(namespace), 409, "namespace_exists");
  assert.equal((await client.createNamespace(namespace, { existOk: true })).name, namespace);
  const ada = client.profile(namespace, "ada");

  const kept = await ada.remember({ content: "Ada keeps bees on her roof in Porto.", metadata: { topic: "bees" } });
  assert.equal(kept.content, "Ada keeps bees on her roof in Porto.");
  assert.equal((await ada.remember("Ada keeps bees on her roof in Porto.")).id, kept.id); // known content
  for (const n of [1, 2, 3, 4]) await ada.remember(`Ada's sister number ${n} lives in town ${n}.`);

  const recalled = await ada.recall({ query: "Where does Ada keep her bees?", limit: 3 });
  assert.ok(recalled.candidates.length <= 3);
  assert.ok(recalled.candidates.some((c) => c.id === kept.id), JSON.stringify(recalled.candidates));
  assert.ok((await ada.recall("bees")).candidates.some((c) => c.id === kept.id)); // a string is the query

  const page = await ada.listMemories({ limit: 2 });
  assert.equal(page.memories.length, 2);
  assert.ok(page.cursor);
  const everyOne = [];
  for await (const memory of ada.memories({ limit: 2 })) everyOne.push(memory.id); // three pages
  assert.equal(everyOne.length, 5);
  assert.equal(new Set(everyOne).size, 5);
  const tagged = [];
  for await (const memory of ada.memories({ metadata: { topic: "bees" } })) tagged.push(memory.id);
  assert.deepEqual(tagged, [kept.id]);

  const detail = await ada.getMemory(kept.id);
  assert.equal(detail.id, kept.id);
  const edited = await ada.editMemory(kept.id, { content: "Ada keeps bees on her roof in Lisbon." });
  assert.equal(edited.content, "Ada keeps bees on her roof in Lisbon.");
  assert.equal(edited.version, 2);

  const summary = await ada.getSummary();
  assert.ok(summary.includes("bees"), summary);

  assert.equal((await ada.deleteMemory(kept.id)).id, kept.id);
  assert.equal((await ada.deleteMemory(kept.id)).id, kept.id); // idempotent
  await rejects(ada.getMemory(kept.id), 404, "memory_not_found");
  await rejects(ada.remember("Ada keeps bees on her roof in Lisbon."), 409, "memory_forgotten");
  const restored = await ada.remember({ content: "Ada keeps bees on her roof in Lisbon.", restore: true });
  assert.equal(restored.content, "Ada keeps bees on her roof in Lisbon.");
});

test("ingest, the job, sessions, history, delete a session", async () => {
  const client = adminClient();
  const namespace = uniqueNamespace("ts-sessions");
  await client.createNamespace(namespace);
  const bo = client.profile(namespace, "bo");
  assert.equal((await bo.put()).name, "bo");

  const ingested = await bo.ingest({
    sessionId: "walks",
    messages: [{ role: "user", content: "I walk my greyhound Pixel every morning at six." }],
  });
  assert.equal(ingested.messagesNew, 1);
  assert.ok(ingested.jobId);
  const job = await bo.waitForJob(ingested.jobId, { timeoutMs: 60_000 });
  assert.equal(job.status, "done");
  const again = await bo.ingest({
    sessionId: "walks",
    messages: [{ role: "user", content: "I walk my greyhound Pixel every morning at six." }],
  });
  assert.deepEqual([again.messagesNew, again.jobId], [0, null]);
  assert.ok((await bo.recall("Who is Pixel?")).candidates.length > 0);

  await bo.createSession({ id: "chat", name: "Support chat" });
  await bo.appendMessage("chat", { id: "m1", role: "user", parts: [{ type: "text", text: "Deploying tonight." }] });
  await bo.appendMessage("chat", { id: "m2", role: "assistant", parts: [{ type: "text", text: "Good luck." }] });
  // A second answer to m1: a branch beside m2, and the history follows the newest leaf.
  await bo.appendMessage(
    "chat",
    { id: "m2b", role: "assistant", parts: [{ type: "text", text: "Need a checklist?" }] },
    { parentId: "m1" },
  );
  const history = await bo.getHistory("chat");
  assert.deepEqual(
    history.messages.map((m) => m.id),
    ["m1", "m2b"],
  );
  const oldBranch = await bo.getHistory("chat", { leafId: "m2" });
  assert.deepEqual(
    oldBranch.messages.map((m) => m.id),
    ["m1", "m2"],
  );
  const sessions = [];
  for await (const session of bo.sessions(1)) sessions.push(session.id);
  assert.deepEqual(sessions.sort(), ["chat", "walks"]);

  await bo.deleteSession("walks");
  await bo.deleteSession("walks"); // idempotent
  const left = [];
  for await (const session of bo.sessions()) left.push(session.id);
  assert.deepEqual(left, ["chat"]);
});

test("namespaces and profiles page by page, export and import, the raw api", async () => {
  const client = adminClient();
  const namespace = uniqueNamespace("ts-export");
  await client.createNamespace(namespace);
  for (const name of ["p1", "p2", "p3"]) await client.profile(namespace, name).remember(`${name} likes tea.`);
  const profiles = [];
  for await (const profile of client.profiles(namespace, 2)) profiles.push(profile.name);
  assert.deepEqual(profiles.sort(), ["p1", "p2", "p3"]);
  const names = [];
  for await (const ns of client.namespaces(1)) names.push(ns.name);
  assert.ok(names.includes(namespace));

  const exported = await client.exportNamespace(namespace, { profile: "p2" });
  assert.ok(exported.includes("p2 likes tea."));
  const copy = uniqueNamespace("ts-copy");
  await client.createNamespace(copy);
  const imported = await client.importNamespace(copy, exported);
  assert.equal(imported.inserted.memory, 1, JSON.stringify(imported));
  const copied = [];
  for await (const memory of client.profile(copy, "p2").memories()) copied.push(memory.summary);
  assert.equal(copied.length, 1);

  // Every other operation through the typed openapi-fetch client, with the same key.
  const { data, error } = await client.api.GET("/v1/namespaces/{namespace}/keys", {
    params: { path: { namespace } },
  });
  assert.equal(error, undefined);
  assert.deepEqual(data?.keys, []);

  await client.deleteNamespace(copy);
  await rejects(client.getNamespace(copy), 404, "namespace_not_found");
});

test("keys: none, a wrong one, a namespace key outside its namespace; the environment's key", async () => {
  const admin = adminClient();
  const mine = uniqueNamespace("ts-keys");
  const other = uniqueNamespace("ts-other");
  await admin.createNamespace(mine);
  await admin.createNamespace(other);
  const created = await admin.api.POST("/v1/namespaces/{namespace}/keys", {
    params: { path: { namespace: mine } },
    body: { name: "agent" },
  });
  const key = created.data?.key;
  assert.ok(key);

  const scoped = new MemoryClient({ baseUrl: SERVER_URL, apiKey: key });
  await scoped.profile(mine, "cy").remember("Cy plays the cello.");
  // Another namespace is not there for this key (its existence is not told).
  await rejects(scoped.profile(other, "cy").remember("Cy plays the cello."), 404, "namespace_not_found");
  await rejects(new MemoryClient({ baseUrl: SERVER_URL, apiKey: "" }).getNamespace(mine), 401, "unauthorized");
  await rejects(
    new MemoryClient({ baseUrl: SERVER_URL, apiKey: `amk_wrong_${"ab12".repeat(12)}` }).getNamespace(mine),
    401,
    "unauthorized",
  );
  // Validation: the problem's `errors` come along.
  const invalid = await rejects(admin.createNamespace("Not A Name"), 422, "validation_failed");
  assert.ok(Array.isArray(invalid.problem.errors));

  // The environment (as the test runs: AGENT_MEMORY_URL and AGENT_MEMORY_API_KEY are the admin's).
  const fromEnvironment = new MemoryClient();
  assert.equal(fromEnvironment.baseUrl, SERVER_URL);
  assert.equal((await fromEnvironment.getNamespace(mine)).name, mine);
});

test("a server that cannot be reached, or does not answer in time: MemoryConnectionError", async () => {
  const closed = await loopbackServer(() => undefined);
  await closed.close();
  const unreachable = new MemoryClient({ baseUrl: closed.url, maxRetries: 1 });
  await assert.rejects(unreachable.getNamespace("x"), (error: unknown) => {
    assert.ok(error instanceof MemoryConnectionError);
    assert.match(error.message, new RegExp(`cannot reach agent-memory at ${closed.url}/v1/namespaces/x`));
    return true;
  });

  const silent = await loopbackServer(() => undefined); // never answers
  try {
    const client = new MemoryClient({ baseUrl: silent.url, timeoutMs: 300, maxRetries: 0 });
    await assert.rejects(client.getNamespace("x"), /no answer within the timeout/);
  } finally {
    await silent.close();
  }
});

test("503: idempotent requests are retried (Retry-After believed), POST is not; other bodies still errors", async () => {
  let unavailable = 2;
  const server = await loopbackServer((request, _body, response) => {
    if (request.url?.endsWith("/proxy")) {
      response.writeHead(502, { "Content-Type": "text/html" }).end("<html>Bad gateway</html>");
    } else if (unavailable > 0 || request.method === "POST") {
      unavailable--;
      response
        .writeHead(503, { "Content-Type": "application/problem+json", "Retry-After": "0" })
        .end(JSON.stringify({ type: "about:blank", title: "Unavailable", status: 503, detail: "busy", code: "unavailable" }));
    } else {
      response.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ name: "x", createdAt: "now" }));
    }
  });
  try {
    const client = new MemoryClient({ baseUrl: server.url, maxRetries: 2 });
    assert.equal((await client.getNamespace("x")).name, "x");
    assert.equal(server.requests.length, 3); // two 503s, then the answer

    await rejects(client.profile("x", "p").remember("z"), 503, "unavailable");
    assert.equal(server.requests.length, 4); // sent once

    const proxied = await rejects(client.getNamespace("proxy"), 502, "http_502");
    assert.match(proxied.detail, /Bad gateway/);
  } finally {
    await server.close();
  }
});

test("the consistency token: kept from a write's answer, sent with every later request", async () => {
  let position = 0;
  const server = await loopbackServer((request, _body, response) => {
    const headers: Record<string, string> = { "Content-Type": "application/json" };
    if (request.method !== "GET") headers[CONSISTENCY_HEADER] = `v1.${(++position).toString(16)}`;
    response.writeHead(200, headers).end(JSON.stringify({ name: "x", createdAt: "now" }));
  });
  try {
    const client = new MemoryClient({ baseUrl: server.url });
    await client.getNamespace("x");
    assert.equal(server.requests[0]?.headers["agent-memory-consistency"], undefined); // nothing yet
    await client.createNamespace("x");
    assert.equal(client.consistencyToken, "v1.1");
    await client.getNamespace("x");
    assert.equal(server.requests[2]?.headers["agent-memory-consistency"], "v1.1");
    await client.createNamespace("x");
    await client.getNamespace("x");
    assert.equal(server.requests[4]?.headers["agent-memory-consistency"], "v1.2"); // the latest
    assert.equal(client.consistencyToken, "v1.2");

    // Handed to another client, which reads what the first wrote.
    const other = new MemoryClient({ baseUrl: server.url, consistencyToken: client.consistencyToken });
    await other.getNamespace("x");
    assert.equal(server.requests[5]?.headers["agent-memory-consistency"], "v1.2");
  } finally {
    await server.close();
  }

  // The live server without read replicas sends no token, and the client sends none back.
  const client = adminClient();
  await client.createNamespace(uniqueNamespace("ts-token"));
  assert.equal(client.consistencyToken, undefined);
});
