// The memory inspector: a single page over the REST API. Routes live in the location hash
// (#/ns/<namespace>/p/<profile>/<tab>…), so every view has a link and the back button works. The key is
// typed once and kept in this tab's sessionStorage (never localStorage); every request sends it, and the
// API decides what it may see. All text from the API is put on the page with textContent (the `h` helper),
// never parsed as HTML.

import { renderMarkdown } from "./markdown.js";

const KEY = "agent-memory.key";
const main = document.getElementById("main");
const crumbs = document.getElementById("crumbs");
const whoBox = document.getElementById("who");
const notice = document.getElementById("notice");
const state = { who: null, traceSupported: true };
const TYPES = ["fact", "event", "instruction", "task"];
const enc = encodeURIComponent;

// ---- DOM ------------------------------------------------------------------------------------------------

function h(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (["value", "checked", "disabled", "selected", "required"].includes(name)) node[name] = value;
    else node.setAttribute(name === "htmlFor" ? "for" : name, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

let uid = 0;
function field(labelText, control, wide) {
  const id = control.id || `f${++uid}`;
  control.id = id;
  return h("div", { class: wide ? "field wide" : "field" }, h("label", { htmlFor: id, text: labelText }), control);
}

// A bar of filters or options: submitting it (Enter, or its button) hands the form's data to `submit`
// instead of loading a page.
function filterForm(label, submit, ...children) {
  const onsubmit = (e) => {
    e.preventDefault();
    submit(new FormData(e.currentTarget));
  };
  return h("form", { class: "card filters", "aria-label": label, onsubmit }, ...children);
}

function select(name, options, current) {
  return h(
    "select",
    { name },
    options.map(([value, label]) => h("option", { value, selected: value === (current ?? ""), text: label })),
  );
}

function table(caption, columns, rows, extraClass) {
  const body = h("tbody");
  const t = h(
    "table",
    { class: `responsive ${extraClass || ""}` },
    h("caption", { text: caption }),
    h("thead", {}, h("tr", {}, columns.map((c) => h("th", { scope: "col", class: c.cls, text: c.label })))),
    body,
  );
  const add = (cells) => {
    for (const row of cells) {
      body.append(
        h("tr", {}, row.map((cell, i) => h("td", { class: columns[i].cls, "data-label": columns[i].label }, cell))),
      );
    }
  };
  add(rows);
  return { node: h("div", { class: "table-wrap" }, t), add, body };
}

// A bar for a share of a whole: the number is always beside it, the bar only draws it.
function bar(fraction, alt) {
  const fill = h("span");
  fill.style.width = `${Math.max(0, Math.min(1, fraction || 0)) * 100}%`;
  return h("div", { class: alt ? "bar alt" : "bar", "aria-hidden": "true" }, fill);
}

function barRow(name, value, fraction, text, alt) {
  return h(
    "div",
    { class: "bar-row" },
    h("span", { class: "name", text: name }),
    bar(fraction, alt),
    h("span", { class: "value", text: text ?? fmt(value) }),
  );
}

function fmt(n, digits = 3) {
  if (typeof n !== "number") return String(n ?? "");
  return Number.isInteger(n) ? String(n) : n.toFixed(digits);
}

// A score, always with its decimals (1 is 1.000 beside 0.410).
function score(n, digits = 3) {
  return typeof n === "number" ? n.toFixed(digits) : String(n ?? "");
}

function when(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

function pill(type) {
  return h("span", { class: `pill ${type}`, text: type });
}

function json(value) {
  return value && Object.keys(value).length ? JSON.stringify(value) : "";
}

function say(text, isError) {
  notice.replaceChildren(h("p", { class: isError ? "error" : "", text }));
}

// A notice for the page an action navigates to (each navigation clears the previous page's notices).
let nextNotice = null;
function sayOnNextPage(text) {
  nextNotice = text;
}

function confirmDialog(text) {
  const dialog = document.getElementById("confirm");
  document.getElementById("confirm-text").textContent = text;
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), { once: true });
    dialog.returnValue = "cancel";
    dialog.showModal();
  });
}

// A message's speaker: its name when it has one (with the role beside it), else its role.
function speaker(message) {
  return message.name ? `${message.name} (${message.role})` : message.role;
}

function messageText(message) {
  return (message.parts || [])
    .map((p) => (p.type === "text" || p.type === "reasoning" ? p.text : `[${p.type}]`))
    .join(" ");
}

// ---- API ------------------------------------------------------------------------------------------------

class ApiError extends Error {
  constructor(status, body) {
    super(body?.detail || body?.title || `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

async function api(method, path, { body, query } = {}) {
  const url = new URL(path, location.origin);
  for (const [k, v] of Object.entries(query || {})) if (v !== undefined && v !== null && v !== "") url.searchParams.set(k, v);
  const headers = { Accept: "application/json" };
  const key = sessionStorage.getItem(KEY);
  if (key) headers.Authorization = `Bearer ${key}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (response.status === 204) return null;
  const data = await response.json().catch(() => null);
  if (response.status === 401 && state.who) {
    // Revoked, or its namespace deleted, while signed in. (At sign-in the form says so itself.)
    signOut("The server refused the key: sign in again.");
    throw new ApiError(401, data);
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

function signOut(message) {
  sessionStorage.removeItem(KEY);
  state.who = null;
  if (message) say(message, true);
  location.hash = "#/login";
}

// ---- routing --------------------------------------------------------------------------------------------

function parseHash() {
  const raw = location.hash.replace(/^#/, "") || "/";
  const [path, search] = raw.split("?");
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  return { parts, query: new URLSearchParams(search || "") };
}

function link(path, query) {
  const q = query && [...query].length ? `?${query}` : "";
  return `#/${path.map(enc).join("/")}${q}`;
}

function setCrumbs(items) {
  const nodes = [];
  items.forEach(([label, href], i) => {
    if (i) nodes.push(h("span", { class: "sep", "aria-hidden": "true", text: "›" }));
    nodes.push(href ? h("a", { href, text: label }) : h("span", { "aria-current": "page", text: label }));
  });
  crumbs.replaceChildren(...nodes);
}

function showWho() {
  if (!state.who) {
    whoBox.replaceChildren();
    return;
  }
  const label = state.who.admin
    ? sessionStorage.getItem(KEY)
      ? "admin key"
      : "open server (no key)"
    : `namespace key: ${state.who.namespace}`;
  whoBox.replaceChildren(
    h("span", { text: label }),
    h("button", { type: "button", onclick: () => signOut("Signed out."), text: "Sign out" }),
  );
}

// A server running open (loopback, no admin key) needs no sign-in: /ui/access says so (a 200 either way, so
// a closed server leaves no error in the console), and the key is then no key at all. The tab keeps an empty
// key, as signing in with an empty field did.
async function enterOpenServer() {
  try {
    const access = await fetch(new URL("/ui/access", location.origin), { headers: { Accept: "application/json" } });
    if (!access.ok || !(await access.json()).open) return false;
    const who = await api("GET", "/v1/key");
    if (!who.admin || who.keyId !== null) return false;
    sessionStorage.setItem(KEY, "");
    state.who = who;
    return true;
  } catch {
    return false; // closed (401), or unreachable: the sign-in form says what to do
  }
}

async function route() {
  const { parts, query } = parseHash();
  if (sessionStorage.getItem(KEY) === null && parts[0] !== "login") await enterOpenServer();
  if (sessionStorage.getItem(KEY) === null || parts[0] === "login") {
    if (sessionStorage.getItem(KEY) !== null && parts[0] === "login") sessionStorage.removeItem(KEY);
    state.who = null;
    showWho();
    return render(loginPage, "Sign in");
  }
  try {
    if (!state.who) state.who = await api("GET", "/v1/key");
  } catch (error) {
    if (error.status === 401) signOut("The server refused the key: sign in again.");
    else render(() => Promise.reject(error), "Error");
    return;
  }
  showWho();
  if (parts[0] !== "ns") {
    if (!state.who.admin) return location.replace(link(["ns", state.who.namespace]));
    return render(() => namespacesPage(), "Namespaces");
  }
  const [, ns, p, profile, tab, id] = parts;
  if (p === "webhooks") {
    // #/ns/<ns>/webhooks and #/ns/<ns>/webhooks/<webhook id>: the fourth part is the endpoint's id.
    if (profile) return render(() => webhookPage(ns, profile), `${ns} · webhook`);
    return render(() => webhooksPage(ns), `${ns} · webhooks`);
  }
  if (p !== "p") return render(() => namespacePage(ns), ns);
  const ctx = { ns, profile, query, base: `/v1/namespaces/${enc(ns)}/profiles/${enc(profile)}` };
  const pages = {
    memories: memoriesPage,
    memory: () => memoryPage(ctx, id),
    sessions: sessionsPage,
    session: () => sessionPage(ctx, id),
    recall: recallPage,
    summary: summaryPage,
    jobs: jobsPage,
    context: contextPage,
  };
  const page = pages[tab || "memories"] || memoriesPage;
  return render(() => profileFrame(ctx, tab || "memories", () => page(ctx)), `${profile} · ${tab || "memories"}`);
}

let renderCount = 0;
async function render(build, title) {
  const mine = ++renderCount;
  document.title = `${title} — agent-memory inspector`;
  main.replaceChildren(h("p", { class: "muted", text: "Loading…" }));
  main.setAttribute("aria-busy", "true");
  try {
    const content = await build();
    if (mine !== renderCount) return; // a later navigation won
    main.replaceChildren(content);
    main.querySelector("[data-autofocus]")?.focus();
  } catch (error) {
    if (mine !== renderCount) return;
    main.replaceChildren(
      h("h1", { text: error.status === 404 ? "Not found" : "Something went wrong" }),
      h("p", { class: "error", text: `${error.status ? `${error.status}: ` : ""}${error.message}` }),
    );
  } finally {
    if (mine === renderCount) main.removeAttribute("aria-busy");
  }
}

window.addEventListener("hashchange", () => {
  notice.replaceChildren();
  if (nextNotice) say(nextNotice);
  nextNotice = null;
  route().then(() => main.focus({ preventScroll: true }));
});

// ---- pages ----------------------------------------------------------------------------------------------

// The sign-in form shows only when the server is closed (an open one is entered without it) or after
// signing out: say where the first key comes from.
const NEEDS_A_KEY =
  "No key yet? On the server's machine, `agent-memory keys create --admin` prints an admin key " +
  "(AGENT_MEMORY_ADMIN_KEY is one too).";

function loginPage() {
  setCrumbs([]);
  const input = h("input", {
    type: "password",
    name: "key",
    autocomplete: "off",
    spellcheck: "false",
    placeholder: "amk_…",
    "data-autofocus": true,
  });
  const error = h("p", { class: "error", role: "alert" });
  const form = h(
    "form",
    {
      class: "card login",
      "aria-labelledby": "login-title",
      onsubmit: async (event) => {
        event.preventDefault();
        sessionStorage.setItem(KEY, input.value.trim());
        try {
          state.who = await api("GET", "/v1/key");
          notice.replaceChildren();
          location.hash = "#/";
        } catch (e) {
          sessionStorage.removeItem(KEY);
          if (e.status !== 401) error.textContent = e.message;
          else if (input.value.trim()) error.textContent = "This key was refused.";
          else error.textContent = "This server is not open: it needs a key. " + NEEDS_A_KEY;
        }
      },
    },
    h("h1", { id: "login-title", text: "Sign in" }),
    h("p", {
      class: "muted",
      text:
        "Use an API key, as for the REST API: an admin key sees every namespace, a namespace key its own. " +
        "The key stays in this browser tab (session storage) until you sign out or close the tab. " +
        NEEDS_A_KEY +
        " A server running open needs none: leave the field empty.",
    }),
    field("API key", input),
    error,
    h("div", { class: "actions" }, h("button", { type: "submit", text: "Sign in" })),
  );
  return form;
}

async function namespacesPage() {
  setCrumbs([["Namespaces"]]);
  const list = table("Namespaces", [{ label: "Namespace" }, { label: "Created" }], []);
  const more = h("div", { class: "more" });
  const load = async (cursor) => {
    const page = await api("GET", "/v1/namespaces", { query: { limit: 100, cursor } });
    list.add(page.namespaces.map((n) => [h("a", { href: link(["ns", n.name]), text: n.name }), when(n.createdAt)]));
    more.replaceChildren(
      page.cursor ? h("button", { type: "button", class: "secondary", onclick: () => load(page.cursor), text: "Load more" }) : "",
    );
  };
  await load();
  return h("section", {}, h("h1", { text: "Namespaces" }), list.node, more);
}

async function namespacePage(ns) {
  setCrumbs([...(state.who.admin ? [["Namespaces", "#/"]] : []), [ns]]);
  const columns = [
    { label: "Profile" },
    ...TYPES.map((t) => ({ label: `${t}s`, cls: "num" })),
    { label: "messages", cls: "num" },
    { label: "sessions", cls: "num" },
    { label: "pending jobs", cls: "num" },
  ];
  const list = table(`Profiles of ${ns}`, columns, []);
  const more = h("div", { class: "more" });
  const load = async (cursor) => {
    const page = await api("GET", `/v1/namespaces/${enc(ns)}/profiles`, { query: { limit: 50, cursor } });
    const details = await Promise.all(
      page.profiles.map((p) => api("GET", `/v1/namespaces/${enc(ns)}/profiles/${enc(p.name)}`)),
    );
    list.add(
      details.map((d) => [
        h("a", { href: link(["ns", ns, "p", d.name]), text: d.name }),
        ...TYPES.map((t) => fmt(d.counts.memories[t])),
        fmt(d.counts.messages),
        fmt(d.counts.sessions),
        fmt(d.counts.pendingJobs),
      ]),
    );
    more.replaceChildren(
      page.cursor ? h("button", { type: "button", class: "secondary", onclick: () => load(page.cursor), text: "Load more" }) : "",
    );
  };
  await load();
  return h(
    "section",
    {},
    h("h1", { text: `Namespace ${ns}` }),
    h("p", {}, h("a", { href: link(["ns", ns, "webhooks"]), text: "Webhooks and their delivery log" })),
    list.node,
    more,
  );
}

// ---- webhooks -------------------------------------------------------------------------------------------

function webhookCrumbs(ns, last) {
  setCrumbs([
    ...(state.who.admin ? [["Namespaces", "#/"]] : []),
    [ns, link(["ns", ns])],
    ...(last ? [["Webhooks", link(["ns", ns, "webhooks"])], [last]] : [["Webhooks"]]),
  ]);
}

function endpointState(w) {
  if (w.enabled) return h("span", { class: w.failingSince ? "status-running" : "status-done", text: w.failingSince ? `failing since ${when(w.failingSince)}` : "enabled" });
  return h("span", { class: "status-failed", text: `disabled${w.disabledReason ? `: ${w.disabledReason}` : ""}` });
}

async function webhooksPage(ns) {
  webhookCrumbs(ns);
  const { webhooks } = await api("GET", `/v1/namespaces/${enc(ns)}/webhooks`);
  const list = table(
    `Webhook endpoints of ${ns}`,
    [{ label: "Endpoint" }, { label: "URL" }, { label: "Types" }, { label: "Profile" }, { label: "State" }, { label: "Last event", cls: "num" }],
    webhooks.map((w) => [
      h("a", { href: link(["ns", ns, "webhooks", w.id]), class: "mono", text: w.id }),
      h("span", { class: "mono", text: w.url }),
      w.types ? w.types.join(", ") : "every type",
      w.profile || "every profile",
      endpointState(w),
      String(w.cursor),
    ]),
  );
  if (!webhooks.length) list.add([[h("span", { class: "muted", text: "No webhook endpoint: register one with POST /v1/namespaces/{ns}/webhooks." }), "", "", "", "", ""]]);
  return h("section", {}, h("h1", { text: `Webhooks of ${ns}` }), list.node);
}

function deliveryRow(base, d) {
  const redeliver = h("button", {
    type: "button",
    class: "secondary",
    "aria-label": `Redeliver ${d.messageId}`,
    text: "Redeliver",
    onclick: async () => {
      try {
        const again = await api("POST", `${base}/deliveries/${enc(d.id)}/redeliver`);
        say(`Message ${again.messageId} queued again (delivery ${again.id}).`);
      } catch (err) {
        say(err.message, true);
      }
    },
  });
  return [
    h("span", { class: "mono", text: d.messageId }),
    d.eventType + (d.ordered ? "" : " (sent by hand)"),
    d.eventId === null ? "" : String(d.eventId),
    h("span", { class: `status-${d.status === "delivered" ? "done" : d.status === "pending" ? "running" : "failed"}`, text: d.status }),
    String(d.attempts),
    d.responseStatus === null ? "" : String(d.responseStatus),
    d.responseMs === null ? "" : `${d.responseMs} ms`,
    d.lastError ? h("pre", { class: "error", text: d.lastError }) : "",
    when(d.finishedAt || d.nextAttemptAt || d.createdAt),
    redeliver,
  ];
}

async function webhookPage(ns, id) {
  webhookCrumbs(ns, id);
  const base = `/v1/namespaces/${enc(ns)}/webhooks/${enc(id)}`;
  const w = await api("GET", base);
  const log = table(
    "Delivery log, newest first",
    [
      { label: "Message (webhook-id)" }, { label: "Type" }, { label: "Event", cls: "num" }, { label: "Status" },
      { label: "Attempts", cls: "num" }, { label: "Answer", cls: "num" }, { label: "Time", cls: "num" },
      { label: "Last error" }, { label: "When" }, { label: "" },
    ],
    [],
    "deliveries",
  );
  const more = h("div", { class: "more" });
  const load = async (cursor) => {
    const page = await api("GET", `${base}/deliveries`, { query: { limit: 50, cursor } });
    log.add(page.deliveries.map((d) => deliveryRow(base, d)));
    if (!cursor && !page.deliveries.length) log.add([[h("span", { class: "muted", text: "Nothing delivered yet." }), "", "", "", "", "", "", "", "", ""]]);
    more.replaceChildren(
      page.cursor ? h("button", { type: "button", class: "secondary", onclick: () => load(page.cursor), text: "Load more" }) : "",
    );
  };
  await load();
  const test = h("button", {
    type: "button",
    text: "Send a test event",
    onclick: async () => {
      try {
        const sent = await api("POST", `${base}/test`);
        say(`Test event ${sent.messageId} queued: the worker sends it (reload to see how it went).`);
      } catch (err) {
        say(err.message, true);
      }
    },
  });
  const reload = h("button", { type: "button", class: "secondary", text: "Reload", onclick: () => route() });
  const details = h(
    "dl",
    { class: "card props" },
    h("dt", { text: "URL" }), h("dd", { class: "mono", text: w.url }),
    h("dt", { text: "Types" }), h("dd", { text: w.types ? w.types.join(", ") : "every type" }),
    h("dt", { text: "Profile" }), h("dd", { text: w.profile || "every profile" }),
    h("dt", { text: "State" }), h("dd", {}, endpointState(w)),
    h("dt", { text: "Last event handed over" }), h("dd", { text: String(w.cursor) }),
    h("dt", { text: "Created" }), h("dd", { text: when(w.createdAt) }),
  );
  return h(
    "section",
    { "aria-label": "Webhook endpoint" },
    h("h1", { text: `Webhook ${w.id}` }),
    details,
    h("div", { class: "actions" }, test, reload),
    h("h2", { text: "Deliveries" }),
    log.node,
    more,
  );
}

const TABS = [
  ["memories", "Memories"],
  ["sessions", "Sessions"],
  ["recall", "Recall"],
  ["summary", "Summary"],
  ["jobs", "Jobs"],
  ["context", "Context blocks"],
];

// The tab a page belongs to: one memory is under Memories, one session under Sessions.
const SECTION_OF = { memory: "memories", session: "sessions" };

// The point-in-time control: `asOf` in the hash's query, carried from tab to tab.
function asOfControl(ctx) {
  const current = ctx.query.get("asOf");
  const input = h("input", { type: "datetime-local", step: "1", name: "asOf" });
  if (current) {
    const d = new Date(current);
    input.value = new Date(d.getTime() - d.getTimezoneOffset() * 60000).toISOString().slice(0, 19);
  }
  const go = (value) => {
    const query = new URLSearchParams(ctx.query);
    if (value) query.set("asOf", value);
    else query.delete("asOf");
    location.hash = link(parseHash().parts, query);
  };
  return h(
    "form",
    {
      class: `card asof${current ? " active" : ""}`,
      "aria-label": "Point in time",
      onsubmit: (e) => {
        e.preventDefault();
        go(input.value ? new Date(input.value).toISOString() : "");
      },
    },
    field("Read the profile as of (your local time)", input),
    h("button", { type: "submit", text: "Apply" }),
    current ? h("button", { type: "button", class: "secondary", onclick: () => go(""), text: "Back to now" }) : "",
    h("span", {
      class: "muted",
      text: current ? `Showing the profile as it was at ${when(current)}.` : "Showing the profile now.",
    }),
  );
}

async function profileFrame(ctx, tab, page) {
  const { ns, profile } = ctx;
  setCrumbs([...(state.who.admin ? [["Namespaces", "#/"]] : []), [ns, link(["ns", ns])], [profile]]);
  const keep = new URLSearchParams(ctx.query.get("asOf") ? { asOf: ctx.query.get("asOf") } : {});
  const [detail, content] = await Promise.all([api("GET", ctx.base), page()]);
  const c = detail.counts;
  return h(
    "div",
    {},
    h("h1", { text: `Profile ${profile}` }),
    h("p", {
      class: "muted",
      text:
        `${TYPES.map((t) => `${c.memories[t]} ${t}s`).join(", ")} · ${c.messages} messages · ` +
        `${c.sessions} sessions · ${c.pendingJobs} pending jobs`,
    }),
    h(
      "nav",
      { class: "tabs", "aria-label": "Profile" },
      TABS.map(([id, label]) =>
        h("a", { href: link(["ns", ns, "p", profile, id], keep), "aria-current": id === (SECTION_OF[tab] || tab) ? "page" : false, text: label }),
      ),
    ),
    asOfControl(ctx),
    content,
  );
}

async function memoriesPage(ctx) {
  const q = ctx.query;
  const form = filterForm(
    "Filter memories",
    (data) => {
      const query = new URLSearchParams();
      for (const [k, v] of data) if (v) query.set(k, v);
      if (q.get("asOf")) query.set("asOf", q.get("asOf"));
      location.hash = link(["ns", ctx.ns, "p", ctx.profile, "memories"], query);
    },
    field("Text contains", h("input", { type: "search", name: "q", value: q.get("q") || "" }), true),
    field("Type", select("type", [["", "any"], ...TYPES.map((t) => [t, t])], q.get("type"))),
    field("Session", h("input", { name: "sessionId", value: q.get("sessionId") || "" })),
    field("Metadata (JSON)", h("input", { name: "metadata", value: q.get("metadata") || "", placeholder: '{"project":"apollo"}' })),
    h(
      "label",
      { class: "inline" },
      h("input", { type: "checkbox", name: "include", value: "superseded", checked: q.get("include") === "superseded" }),
      "include superseded",
    ),
    h("button", { type: "submit", text: "Filter" }),
  );
  const columns = [{ label: "Summary" }, { label: "Type" }, { label: "Session" }, { label: "Metadata" }, { label: "Created" }, { label: "State" }];
  const list = table("Memories, newest first", columns, [], "memories");
  const more = h("div", { class: "more" });
  const load = async (cursor) => {
    const query = Object.fromEntries(["q", "type", "sessionId", "metadata", "include", "asOf"].map((k) => [k, q.get(k)]));
    const page = await api("GET", `${ctx.base}/memories`, { query: { ...query, limit: 50, cursor } });
    const keep = new URLSearchParams(q.get("asOf") ? { asOf: q.get("asOf") } : {});
    list.add(
      page.memories.map((m) => [
        h("a", { href: link(["ns", ctx.ns, "p", ctx.profile, "memory", m.id], keep), text: m.summary }),
        pill(m.type),
        m.sessionId || "",
        h("span", { class: "mono", text: json(m.metadata) }),
        when(m.createdAt),
        m.supersededBy ? "superseded" : "active",
      ]),
    );
    if (!cursor && !page.memories.length) list.add([[h("span", { class: "muted", text: "No memory matches." }), "", "", "", "", ""]]);
    more.replaceChildren(
      page.cursor ? h("button", { type: "button", class: "secondary", onclick: () => load(page.cursor), text: "Load more" }) : "",
    );
  };
  await load();
  return h("section", { "aria-label": "Memories" }, form, list.node, more, await tombstonesSection(ctx));
}

// ---- tombstones: what deleted memories left (fingerprints, no text), each lifted on request ----------------

async function tombstonesSection(ctx) {
  const columns = [{ label: "Deleted memory" }, { label: "Type" }, { label: "Session" }, { label: "Messages" }, { label: "Deleted" }, { label: "" }];
  const list = table("Tombstones: deleted memories that the same messages or content do not bring back", columns, [], "tombstones");
  const page = await api("GET", `${ctx.base}/tombstones`, { query: { limit: 20 } });
  const lift = async (t) => {
    if (!(await confirmDialog(`Lift the tombstone of ${t.id}? The same messages or content may then store it again.`))) return;
    await api("DELETE", `${ctx.base}/tombstones/${enc(t.id)}`);
    say(`Tombstone ${t.id} lifted.`);
    list.node.replaceWith(await tombstonesSection(ctx));
  };
  list.add(
    page.tombstones.map((t) => [
      h("span", { class: "mono", text: t.id }),
      pill(t.type),
      t.sessionId || "",
      `${t.messageIds.length} deleted, ${t.keptMessageIds.length} kept`,
      when(t.createdAt),
      h("button", { type: "button", class: "secondary", "aria-label": `Lift tombstone ${t.id}`, onclick: () => lift(t), text: "Lift" }),
    ]),
  );
  if (!page.tombstones.length) list.add([[h("span", { class: "muted", text: "No deleted memory." }), "", "", "", "", ""]]);
  return list.node;
}

async function memoryPage(ctx, id) {
  const asOf = ctx.query.get("asOf");
  const [memory, history] = await Promise.all([
    api("GET", `${ctx.base}/memories/${enc(id)}`, { query: { asOf } }),
    api("GET", `${ctx.base}/memories/${enc(id)}/history`),
  ]);
  const memoryLink = (mid) => h("a", { href: link(["ns", ctx.ns, "p", ctx.profile, "memory", mid]), class: "mono", text: mid });

  // The supersession chain: what this memory replaced (from other memories' histories is not listed by the
  // API, so backwards only as far as history tells) and what replaced it, followed forward.
  const chain = [h("span", { class: "current mono", text: id })];
  let next = memory.supersededBy;
  for (let hops = 0; next && hops < 10; hops++) {
    chain.push(h("span", { "aria-hidden": "true", text: "→" }), memoryLink(next));
    try {
      next = (await api("GET", `${ctx.base}/memories/${enc(next)}`)).supersededBy;
    } catch {
      break;
    }
  }

  const props = h(
    "dl",
    { class: "props" },
    h("dt", { text: "Type" }), h("dd", {}, pill(memory.type)),
    h("dt", { text: "Content" }), h("dd", {}, h("pre", { text: memory.content })),
    h("dt", { text: "Said by" }), h("dd", { text: memory.speaker ? (memory.speakerRole ? `${memory.speaker} (${memory.speakerRole})` : memory.speaker) : memory.speakerRole || "—" }),
    h("dt", { text: "Session" }), h("dd", {}, memory.sessionId ? h("a", { href: link(["ns", ctx.ns, "p", ctx.profile, "session", memory.sessionId]), text: memory.sessionId }) : "—"),
    h("dt", { text: "Metadata" }), h("dd", { class: "mono", text: json(memory.metadata) || "—" }),
    h("dt", { text: "Event time" }), h("dd", { text: memory.eventTime ? when(memory.eventTime) : "—" }),
    h("dt", { text: "Version" }), h("dd", { text: String(memory.version) }),
    h("dt", { text: "Created / updated" }), h("dd", { text: `${when(memory.createdAt)} / ${when(memory.updatedAt)}` }),
    h("dt", { text: "State" }), h("dd", { text: memory.supersededBy ? "superseded" : "active" }),
  );
  const sources = table(
    "Sources: the messages it was drawn from",
    [{ label: "Role" }, { label: "Message" }, { label: "When" }],
    memory.sources.map((s) => [s.role, h("span", { text: s.content }), when(s.timestamp)]),
  );
  if (!memory.sources.length) sources.add([["—", h("span", { class: "muted", text: "Remembered directly, or its messages were deleted." }), ""]]);
  const versions = table(
    "History, oldest first",
    [{ label: "Version", cls: "num" }, { label: "Change" }, { label: "At" }, { label: "Summary" }, { label: "Superseded by" }],
    history.versions.map((v) => [String(v.version), v.change, when(v.at), h("span", { text: v.summary }), v.supersededBy ? memoryLink(v.supersededBy) : ""]),
    "history",
  );
  versions.node.id = "history";

  const sections = [
    h("h2", { text: memory.summary }),
    h("div", { class: "card" }, props),
    h("h3", { text: "Supersession chain" }),
    h("div", { class: "chain", "aria-label": "Supersession chain" }, chain),
    h("h3", { text: "Sources" }),
    sources.node,
    h("h3", { text: "History" }),
    versions.node,
  ];
  if (!asOf && !memory.supersededBy) sections.push(editForm(ctx, memory));
  return h("section", { "aria-label": "Memory" }, sections);
}

function editForm(ctx, memory) {
  const summary = h("input", { name: "summary", value: memory.summary });
  const content = h("textarea", { name: "content", value: memory.content });
  const type = select("type", TYPES.map((t) => [t, t]), memory.type);
  const metadata = h("textarea", { name: "metadata", value: JSON.stringify(memory.metadata || {}, null, 1) });
  const error = h("p", { class: "error", role: "alert" });
  const save = async (e) => {
    e.preventDefault();
    const body = {};
    if (summary.value !== memory.summary) body.summary = summary.value;
    if (content.value !== memory.content) body.content = content.value;
    if (type.value !== memory.type) body.type = type.value;
    try {
      const parsed = JSON.parse(metadata.value || "{}");
      if (JSON.stringify(parsed) !== JSON.stringify(memory.metadata || {})) body.metadata = parsed;
    } catch {
      error.textContent = "Metadata must be a JSON object.";
      return;
    }
    if (!Object.keys(body).length) {
      error.textContent = "Nothing changed.";
      return;
    }
    try {
      const saved = await api("PATCH", `${ctx.base}/memories/${enc(memory.id)}`, { body });
      const target = link(["ns", ctx.ns, "p", ctx.profile, "memory", saved.id]);
      if (location.hash === target) {
        say(`Saved: version ${saved.version}.`);
        route();
      } else {
        sayOnNextPage(`Saved: version ${saved.version}.`);
        location.hash = target;
      }
    } catch (err) {
      error.textContent = err.message;
    }
  };
  const remove = async () => {
    const ask = `Delete the memory “${memory.summary}” and the messages it came from that no other memory cites? It leaves a tombstone: the same messages or content will not bring it back.`;
    if (!(await confirmDialog(ask))) return;
    try {
      await api("DELETE", `${ctx.base}/memories/${enc(memory.id)}`);
      sayOnNextPage("Memory deleted.");
      location.hash = link(["ns", ctx.ns, "p", ctx.profile, "memories"]);
    } catch (err) {
      error.textContent = err.message;
    }
  };
  return h(
    "form",
    { class: "card", "aria-labelledby": "edit-title", onsubmit: save },
    h("h3", { id: "edit-title", text: "Edit" }),
    h("div", { class: "fields" }, field("Summary", summary, true), field("Type", type)),
    field("Content", content, true),
    field("Metadata (JSON object)", metadata, true),
    error,
    h(
      "div",
      { class: "actions" },
      h("button", { type: "submit", text: "Save changes" }),
      h("button", { type: "button", class: "danger", onclick: remove, text: "Delete memory" }),
    ),
  );
}

async function sessionsPage(ctx) {
  const list = table(
    "Sessions, most recently updated first",
    [{ label: "Name" }, { label: "Id" }, { label: "Parent" }, { label: "Model" }, { label: "Tokens in / out", cls: "num" }, { label: "Updated" }],
    [],
  );
  const more = h("div", { class: "more" });
  const load = async (cursor) => {
    const page = await api("GET", `${ctx.base}/sessions`, { query: { limit: 50, cursor } });
    list.add(
      page.sessions.map((s) => [
        h("a", { href: link(["ns", ctx.ns, "p", ctx.profile, "session", s.id]), text: s.name || s.id }),
        h("span", { class: "mono", text: s.id }),
        s.parentSessionId ? h("a", { href: link(["ns", ctx.ns, "p", ctx.profile, "session", s.parentSessionId]), text: s.parentSessionId }) : "",
        s.model || "",
        `${s.inputTokens} / ${s.outputTokens}`,
        when(s.updatedAt),
      ]),
    );
    if (!cursor && !page.sessions.length) list.add([[h("span", { class: "muted", text: "No session yet." }), "", "", "", "", ""]]);
    more.replaceChildren(
      page.cursor ? h("button", { type: "button", class: "secondary", onclick: () => load(page.cursor), text: "Load more" }) : "",
    );
  };
  await load();
  return h("section", { "aria-label": "Sessions" }, list.node, more);
}

// The message tree from the root of the latest path, one request per level; bounded for huge sessions.
const TREE_LIMIT = 400;
async function messageTree(sessionBase, root) {
  const children = new Map();
  let level = [root.id];
  let seen = 1;
  while (level.length && seen < TREE_LIMIT) {
    const answers = await Promise.all(level.map((id) => api("GET", `${sessionBase}/messages/${enc(id)}/branches`)));
    const next = [];
    answers.forEach((answer, i) => {
      children.set(level[i], answer.messages);
      for (const m of answer.messages) next.push(m.id);
    });
    seen += next.length;
    level = next;
  }
  return children;
}

function blocksTable(caption, blocks) {
  const list = table(
    caption,
    [{ label: "Label" }, { label: "Kind" }, { label: "Scope" }, { label: "Tokens", cls: "num" }, { label: "Description" }, { label: "Content" }],
    blocks.map((b) => [
      h("span", { class: "mono", text: b.label }),
      b.kind,
      b.scope,
      `${b.tokens}${b.maxTokens ? ` / ${b.maxTokens}` : ""}`,
      b.description || "",
      h("pre", { text: b.content || "" }),
    ]),
  );
  if (!blocks.length) list.add([[h("span", { class: "muted", text: "No block defined." }), "", "", "", "", ""]]);
  return list.node;
}

async function sessionPage(ctx, sid) {
  const sessionBase = `${ctx.base}/sessions/${enc(sid)}`;
  const [info, raw, path, compactions, blocks] = await Promise.all([
    api("GET", sessionBase),
    api("GET", `${sessionBase}/history`, { query: { raw: "true" } }),
    api("GET", `${sessionBase}/history`),
    api("GET", `${sessionBase}/compactions`),
    api("GET", `${sessionBase}/context`),
  ]);
  const onPath = new Set(raw.messages.map((m) => m.id));
  const compactedFrom = new Map(compactions.compactions.map((c) => [c.fromMessageId, c]));
  const tree = h("ul", { class: "tree", "aria-label": "Message tree" });
  if (raw.messages.length) {
    const children = await messageTree(sessionBase, raw.messages[0]);
    const node = (message) => {
      const compaction = compactedFrom.get(message.id);
      const kids = children.get(message.id) || [];
      return h(
        "li",
        {},
        h(
          "span",
          { class: `msg${onPath.has(message.id) ? " on-path" : ""}`, title: message.id },
          h("span", { class: "role", text: speaker(message) }),
          messageText(message).slice(0, 280),
        ),
        kids.length > 1 ? h("span", { class: "pill", text: `${kids.length} branches` }) : "",
        compaction ? h("div", { class: "muted", text: `Compacted up to ${compaction.toMessageId}: ${compaction.summary}` }) : "",
        kids.length ? h("ul", {}, kids.map(node)) : "",
      );
    };
    tree.append(node(raw.messages[0]));
  } else {
    tree.append(h("li", { class: "muted", text: "No message." }));
  }
  const compactionList = table(
    "Compactions",
    [{ label: "From" }, { label: "To" }, { label: "Summary" }, { label: "Created" }],
    compactions.compactions.map((c) => [h("span", { class: "mono", text: c.fromMessageId }), h("span", { class: "mono", text: c.toMessageId }), c.summary, when(c.createdAt)]),
  );
  const pathList = h(
    "ol",
    { class: "card" },
    path.messages.map((m) => h("li", {}, h("strong", { text: `${speaker(m)}: ` }), messageText(m))),
  );
  const prompt = h("div", {});
  const showPrompt = h("button", {
    type: "button",
    class: "secondary",
    text: "Show the system prompt",
    onclick: async () => {
      const answer = await api("GET", `${sessionBase}/system-prompt`);
      prompt.replaceChildren(h("pre", { "aria-label": "System prompt", text: answer.systemPrompt || "(empty)" }));
    },
  });
  return h(
    "section",
    { "aria-label": "Session" },
    h("h2", { text: `Session ${info.name || sid}` }),
    h(
      "dl",
      { class: "props card" },
      h("dt", { text: "Id" }), h("dd", { class: "mono", text: info.id }),
      h("dt", { text: "Parent" }), h("dd", { text: info.parentSessionId || "—" }),
      h("dt", { text: "Model / source" }), h("dd", { text: `${info.model || "—"} / ${info.source || "—"}` }),
      h("dt", { text: "Tokens in / out, cost" }), h("dd", { text: `${info.inputTokens} / ${info.outputTokens}, ${info.estimatedCost}` }),
      h("dt", { text: "Latest path" }), h("dd", { text: `${raw.pathLength} messages, ~${path.tokenEstimate} tokens after compaction` }),
    ),
    h("h3", { text: "Messages as a tree (the latest path highlighted)" }),
    h("div", { class: "card" }, tree),
    h("h3", { text: "The message path the model sees (compactions applied)" }),
    pathList,
    h("h3", { text: "Compactions" }),
    compactionList.node,
    h("h3", { text: "Context blocks in this session" }),
    blocksTable("Context blocks", blocks.blocks),
    h("h3", { text: "System prompt" }),
    h("p", { class: "muted", text: "Showing it freezes it for the session on first call, as the API's freezeSystemPrompt does." }),
    showPrompt,
    prompt,
  );
}

async function recallPage(ctx) {
  const question = h("textarea", { name: "query", required: true, rows: 2 });
  const referenceDate = h("input", { type: "date", name: "referenceDate" });
  const level = select("thinkingLevel", [["low", "low"], ["medium", "medium"], ["high", "high"]], "medium");
  const limit = h("input", { type: "number", name: "limit", min: 1, max: 100, value: "10" });
  // Empty: the server's default minScore. Lowering it shows the candidates an empty recall held back.
  const minScore = h("input", { type: "number", name: "minScore", min: 0, max: 1, step: 0.05, placeholder: "default" });
  const out = h("div", { "aria-live": "polite" });
  const run = async (e) => {
    e?.preventDefault();
    const body = { query: question.value, thinkingLevel: level.value, limit: Number(limit.value) || 10 };
    if (minScore.value !== "") body.minScore = Number(minScore.value);
    if (referenceDate.value) body.referenceDate = referenceDate.value;
    if (ctx.query.get("asOf")) body.asOf = ctx.query.get("asOf");
    out.replaceChildren(h("p", { class: "muted", text: "Recalling…" }));
    try {
      const showHeldBack = () => {
        minScore.value = "0";
        run();
      };
      out.replaceChildren(recallResult(ctx, await recall(ctx, body), showHeldBack));
    } catch (err) {
      out.replaceChildren(h("p", { class: "error", role: "alert", text: err.message }));
    }
  };
  return h(
    "section",
    { "aria-label": "Recall" },
    h(
      "form",
      { class: "card", "aria-label": "Recall", onsubmit: run },
      field("Question", question, true),
      h(
        "div",
        { class: "fields" },
        field("Reference date", referenceDate),
        field("Level", level),
        field("Candidates", limit),
        field("Min score", minScore),
      ),
      h("div", { class: "actions" }, h("button", { type: "submit", text: "Recall" })),
    ),
    out,
  );
}

// Recall with its trace; a server without the trace (an older version) refuses the field with 422, and is
// then asked without it.
async function recall(ctx, body) {
  if (state.traceSupported) {
    try {
      return await api("POST", `${ctx.base}/recall`, { body: { ...body, trace: true } });
    } catch (err) {
      const aboutTrace = err.status === 422 && JSON.stringify(err.body?.errors || []).includes("trace");
      if (!aboutTrace) throw err;
      state.traceSupported = false;
    }
  }
  return api("POST", `${ctx.base}/recall`, { body });
}

function recallResult(ctx, result, showHeldBack) {
  if (!result.count) {
    // Nothing reached minScore: the profile holds nothing that answers the question (as far as recall can
    // tell). The candidates held back are one click away.
    return h(
      "div",
      { class: "card", id: "nothing-relevant" },
      h("h2", { text: "Nothing relevant" }),
      h("p", { class: "muted", text: "No memory scored at or above the minimum score: the answer is empty, as an agent would see it." }),
      h("button", { type: "button", id: "show-held-back", onclick: showHeldBack, text: "Show what was held back (min score 0)" }),
    );
  }
  const candidates = table(
    `Candidates (${result.count})`,
    [{ label: "#", cls: "num" }, { label: "Memory" }, { label: "Type" }, { label: "Session" }, { label: "Score" }],
    result.candidates.map((c, i) => [
      String(i + 1),
      h("a", { href: link(["ns", ctx.ns, "p", ctx.profile, "memory", c.id]), text: c.summary }),
      pill(c.type),
      c.sessionId || "",
      h("div", { class: "score" }, h("span", { class: "mono", text: score(c.score) }), bar(c.score)),
    ]),
    "candidates",
  );
  candidates.node.id = "candidates";
  const parts = [
    h("h2", { text: "Answer" }),
    h("p", { class: "card answer", id: "answer", text: result.answer || "(no answer)" }),
    candidates.node,
  ];
  if (result.trace) parts.push(traceView(result));
  else parts.push(h("p", { class: "muted", id: "no-trace", text: "This server returns no recall trace." }));
  return h("div", {}, parts);
}

function chips(values) {
  return values && values.length ? h("span", { class: "chips" }, values.map((v) => h("span", { class: "pill", text: v }))) : "—";
}

function traceView(result) {
  const { analysis = {}, timings = {}, candidates = [] } = result.trace;
  const total = timings.total || Object.values(timings).reduce((a, b) => a + b, 0) || 1;
  const byId = new Map(candidates.map((c) => [c.id, c]));
  const window_ = analysis.timeWindow ? `${when(analysis.timeWindow.start)} – ${when(analysis.timeWindow.end)}` : "—";
  const analysisCard = h(
    "div",
    { class: "card" },
    h("h3", { text: "How the question was read" }),
    h(
      "dl",
      { class: "props" },
      h("dt", { text: "Language / level" }), h("dd", { text: `${analysis.language || "—"} / ${analysis.level || "—"}` }),
      h("dt", { text: "Terms" }), h("dd", {}, chips(analysis.terms)),
      h("dt", { text: "Phrases" }), h("dd", {}, chips(analysis.phrases)),
      h("dt", { text: "Time window" }), h("dd", { text: window_ }),
      h("dt", { text: "Names" }), h("dd", {}, chips(analysis.names)),
      h("dt", { text: "Relations" }), h("dd", {}, chips(analysis.relations)),
      h("dt", { text: "Nearest words" }), h("dd", {}, chips(analysis.nearestWords)),
    ),
  );
  const timingCard = h(
    "div",
    { class: "card", "aria-label": "Time per stage" },
    h("h3", { text: `Time per stage (total ${fmt(total, 1)} ms)` }),
    Object.entries(timings)
      .filter(([stage]) => stage !== "total")
      .map(([stage, ms]) => barRow(stage, ms, ms / total, `${fmt(ms, 1)} ms`)),
  );
  const perCandidate = result.candidates.map((c, i) => {
    const t = byId.get(c.id);
    if (!t) return "";
    const fusion = t.fusionScore || 0;
    const channels = table(
      `First stage: fusion score ${score(fusion, 4)} from the channels that found it`,
      [{ label: "Channel" }, { label: "Rank", cls: "num" }, { label: "Weight", cls: "num" }, { label: "Contribution" }],
      (t.channels || []).map((ch) => [
        ch.channel,
        String(ch.rank),
        fmt(ch.weight),
        h("div", { class: "score" }, h("span", { class: "mono", text: score(ch.contribution, 4) }), bar(fusion ? ch.contribution / fusion : 0)),
      ]),
      "trace-channels",
    );
    const rankScore = t.rankScore ?? t.score;
    const features = table(
      `Ranking: rank score ${score(rankScore)} = Σ weight × value`,
      [{ label: "Feature" }, { label: "Value", cls: "num" }, { label: "Weight", cls: "num" }, { label: "Contribution" }],
      (t.features || []).map((f) => [
        f.name,
        fmt(f.value),
        fmt(f.weight),
        h("div", { class: "score" }, h("span", { class: "mono", text: score(f.contribution) }), bar(rankScore ? Math.abs(f.contribution) / rankScore : 0, true)),
      ]),
      "trace-features",
    );
    const relevanceTotal = (t.relevance || []).reduce((a, f) => a + Math.abs(f.contribution), 0) || 1;
    const relevance = table(
      `Relevance: score ${score(t.score)} = logistic(${fmt(t.relevanceIntercept ?? 0)} + Σ weight × value)`,
      [{ label: "Feature" }, { label: "Value", cls: "num" }, { label: "Weight", cls: "num" }, { label: "Contribution" }],
      (t.relevance || []).map((f) => [
        f.name,
        fmt(f.value),
        fmt(f.weight),
        h("div", { class: "score" }, h("span", { class: "mono", text: fmt(f.contribution) }), bar(Math.abs(f.contribution) / relevanceTotal, true)),
      ]),
      "trace-relevance",
    );
    return h(
      "details",
      { class: "candidate", open: i === 0 },
      h("summary", {}, `#${i + 1} ${c.summary} — score ${score(c.score)}`),
      h("div", { class: "trace-grid" }, channels.node, features.node, relevance.node),
    );
  });
  return h(
    "section",
    { id: "trace", "aria-label": "Recall trace" },
    h("h2", { text: "Why these candidates" }),
    h("div", { class: "trace-grid" }, analysisCard, timingCard),
    h("div", { class: "card" }, h("h3", { text: "Per candidate" }), perCandidate),
  );
}

async function summaryPage(ctx) {
  const sessions = await api("GET", `${ctx.base}/sessions`, { query: { limit: 100 } });
  const session = select("sessionId", [["", "the most recent session"], ...sessions.sessions.map((s) => [s.id, s.name || s.id])], ctx.query.get("sessionId"));
  const out = h("div", { class: "card", "aria-live": "polite" });
  const run = async () => {
    const answer = await api("POST", `${ctx.base}/summary`, { body: session.value ? { sessionId: session.value } : {} });
    out.replaceChildren(renderMarkdown(answer.summary || "_(empty)_"));
  };
  await run();
  return h(
    "section",
    { "aria-label": "Summary" },
    filterForm(
      "Summary options",
      () => run(),
      field("Last session section from", session),
      h("button", { type: "submit", text: "Summarise" }),
    ),
    out,
  );
}

async function jobsPage(ctx) {
  const status = ctx.query.get("status") || "";
  const form = filterForm(
    "Filter jobs",
    (data) => {
      const query = new URLSearchParams(ctx.query);
      const value = data.get("status");
      if (value) query.set("status", value);
      else query.delete("status");
      location.hash = link(["ns", ctx.ns, "p", ctx.profile, "jobs"], query);
    },
    field("Status", select("status", [["", "any"], ["queued", "queued"], ["running", "running"], ["failed", "failed"], ["done", "done"]], status)),
    h("button", { type: "submit", text: "Show" }),
  );
  const list = table(
    "Jobs, newest first",
    [{ label: "Job" }, { label: "Kind" }, { label: "Status" }, { label: "Attempts", cls: "num" }, { label: "Memories", cls: "num" }, { label: "Created" }, { label: "Finished" }, { label: "Error" }, { label: "" }],
    [],
    "jobs",
  );
  const more = h("div", { class: "more" });
  const row = (job) => {
    const statusCell = h("span", { class: `status-${job.status}`, text: job.status });
    const retry = job.status === "failed"
      ? h("button", {
          type: "button",
          class: "secondary",
          "aria-label": `Retry job ${job.id}`,
          text: "Retry",
          onclick: async (e) => {
            try {
              const again = await api("POST", `${ctx.base}/jobs/${enc(job.id)}/retry`);
              statusCell.className = `status-${again.status}`;
              statusCell.textContent = again.status;
              e.target.remove();
              say(`Job ${job.id} queued again.`);
            } catch (err) {
              say(err.message, true);
            }
          },
        })
      : "";
    return [
      h("span", { class: "mono", text: job.id }),
      job.kind,
      statusCell,
      String(job.attempts),
      String(job.memoriesCreated),
      when(job.createdAt),
      when(job.finishedAt),
      job.error ? h("pre", { class: "error", text: job.error }) : "",
      retry,
    ];
  };
  const load = async (cursor) => {
    const page = await api("GET", `${ctx.base}/jobs`, { query: { status, limit: 50, cursor } });
    list.add(page.jobs.map(row));
    if (!cursor && !page.jobs.length) list.add([[h("span", { class: "muted", text: "No job." }), "", "", "", "", "", "", "", ""]]);
    more.replaceChildren(
      page.cursor ? h("button", { type: "button", class: "secondary", onclick: () => load(page.cursor), text: "Load more" }) : "",
    );
  };
  await load();
  return h("section", { "aria-label": "Jobs" }, form, list.node, more);
}

async function contextPage(ctx) {
  const blocks = await api("GET", `${ctx.base}/context`);
  return h("section", { "aria-label": "Context blocks" }, blocksTable("The profile's context blocks", blocks.blocks));
}

route();
