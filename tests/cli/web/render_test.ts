/**
 * The web UI's markup escapes everything that comes from data: session text,
 * tool calls and results, plugin page data (keys and values) and descriptors,
 * context (prompt text, tool schemas). Each test puts an XSS payload where
 * hostile data can be and checks that no element came out of it.
 */
import assert from "node:assert/strict";
import { escapeHtml, Html, markup, trusted } from "../../../cli/web/html.ts";
import { renderMessage, streamErrors } from "../../../cli/web/transcript.ts";
import { view } from "../../../cli/web/data_view.ts";
import { pluginPageBody, stateBadge } from "../../../cli/web/page_plugins.ts";
import { sessionBody } from "../../../cli/web/page_session.ts";
import { shell } from "../../../cli/web/layout.ts";
import { ASSET_VERSION } from "../../../cli/web/assets.ts";
import { questionText } from "../../../cli/web/runs.ts";
import type { Json } from "../../../core/mod.ts";

const XSS = `<img src=x onerror="alert(1)">`;
const SCRIPT = `</script><script>alert(2)</script>`;
const QUOTE = `" onmouseover="alert(3)`;

/** The tags of a fragment (what a browser would turn into elements). */
function tags(markup: string): string[] {
  return [...markup.matchAll(/<([a-zA-Z][a-zA-Z0-9-]*)/g)].map((m) => m[1].toLowerCase());
}

Deno.test("markup`` escapes text and attribute values; Html fragments are kept", () => {
  const out = markup`<p title="${QUOTE}">${XSS}${markup`<b>${SCRIPT}</b>`}</p>`.value;
  assert.deepEqual(tags(out), ["p", "b"]);
  assert.ok(out.includes("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;"));
  assert.ok(out.includes('title="&quot; onmouseover=&quot;alert(3)"'));
  assert.equal(escapeHtml(`&<>"'`), "&amp;&lt;&gt;&quot;&#39;");
  assert.equal(markup`${[1, null, undefined, false, "a"]}`.value, "1a");
  assert.equal(trusted("<hr>").value, "<hr>");
  assert.throws(() => new Html(Symbol("html"), "<script>"), /made by/);
});

Deno.test("messages: user text, assistant text, thinking, tool calls and results are text", () => {
  const parts = [
    renderMessage({ role: "user", seq: 1, text: XSS }),
    renderMessage({
      role: "assistant",
      seq: 2,
      model: SCRIPT,
      stop: "tool_calls",
      blocks: [
        { type: "thinking", text: XSS, signature: "" },
        { type: "text", text: SCRIPT },
        { type: "tool_call", id: QUOTE, name: `bash${XSS}`, input: { command: XSS, [XSS]: 1 } },
      ],
    }),
    renderMessage({
      role: "tool_result",
      seq: 3,
      callId: QUOTE,
      tool: XSS,
      error: true,
      text: XSS,
    }),
  ].map((h) => h.value).join("");
  for (const t of tags(parts)) assert.ok(!["img", "script"].includes(t), `${t} in ${parts}`);
  assert.ok(!/onerror="/.test(parts));
  assert.ok(!/ onmouseover="/.test(parts));
  assert.ok(parts.includes("&lt;img src=x onerror="));
  // an error result is open, its status says so
  assert.match(parts, /<details class="result" open>/);
  assert.match(parts, /status-error/);
});

Deno.test("a very long text is cut with a note", () => {
  const out = renderMessage({ role: "user", seq: 1, text: "x".repeat(100_010) }).value;
  assert.match(out, /… 10 more characters/);
});

Deno.test("plugin page data: keys, values, tables, lists and actions are escaped", () => {
  const data: Json = {
    [XSS]: SCRIPT,
    rows: [{ [QUOTE]: XSS, name: SCRIPT }, { name: "plain" }],
    list: [XSS, 1, true, null],
    long: `${XSS}\n`.repeat(3),
    deep: { a: { b: { c: { d: { e: { f: XSS } } } } } },
  };
  const out = view(data, {
    url: "/p/x/action",
    actions: [{ name: "delete", label: `Delete ${XSS}` }],
  }).value;
  for (const t of tags(out)) {
    assert.ok(
      [
        "dl",
        "div",
        "dt",
        "dd",
        "table",
        "thead",
        "tr",
        "th",
        "tbody",
        "td",
        "form",
        "input",
        "button",
        "ul",
        "li",
        "span",
        "pre",
      ]
        .includes(t),
      `unexpected <${t}>`,
    );
  }
  // each row carries its own data as the action's arguments (escaped in the attribute)
  assert.ok(out.includes(`name="args" value="{&quot;\\&quot; onmouseover=\\&quot;alert(3)&quot;:`));
  const page = pluginPageBody({
    page: {
      id: "x",
      title: XSS,
      description: SCRIPT,
      owner: `plugin:${QUOTE}`,
      actions: [{ name: "go", label: XSS }],
    },
    data: { ok: true, value: data },
    result: { action: "go", ok: true, value: { [XSS]: SCRIPT } },
  }).value;
  assert.ok(!tags(page).includes("img") && !tags(page).includes("script"), page);
});

Deno.test("the shell: titles and plugin page names in the navigation are text", () => {
  const doc = shell({
    title: XSS,
    active: "sessions",
    pages: [{ id: `a"b`, title: SCRIPT }],
    body: markup`<p>${XSS}</p>`,
  });
  const scripts = [...doc.matchAll(/<script[^>]*>/g)].map((m) => m[0]);
  assert.deepEqual(scripts, [
    `<script src="/assets/theme.js?v=${ASSET_VERSION}">`,
    `<script src="/assets/app.js?v=${ASSET_VERSION}" defer>`,
  ]);
  assert.match(ASSET_VERSION, /^[0-9a-z]+$/);
  assert.ok(!tags(doc).includes("img"));
  assert.ok(doc.includes(`href="/p/a%22b"`));
});

Deno.test("the session page: the floor's question and errors are text", () => {
  const out = sessionBody({
    id: "s1",
    title: XSS,
    conf: { provider: XSS, model: SCRIPT, created: "", cwd: QUOTE },
    messages: [{ role: "user", seq: 1, text: XSS }],
    errors: [XSS],
    state: { running: true, asks: [{ id: "a1", question: XSS }], error: SCRIPT },
    streaming: false,
  }).value;
  assert.ok(!tags(out).includes("img") && !tags(out).includes("script"), out);
  assert.match(out, /<form class="ask" method="post" action="\/ask\/a1"/);
  assert.match(out, /id="cancel-btn" class="danger">/); // running: the cancel button is enabled
});

Deno.test("a long session's page says how many earlier messages it leaves out, and links to all", () => {
  const view = {
    id: "s 1",
    title: "t",
    conf: { provider: "p", model: "m", created: "", cwd: "" },
    messages: [{ role: "user" as const, seq: 4001, text: "late" }],
    errors: [],
    state: { running: false, asks: [] },
    streaming: false,
  };
  const cut = sessionBody({ ...view, hidden: 4000 }).value;
  assert.match(cut, /4,000 earlier messages are not shown\. <a href="\/s\/s%201\?all=1">/);
  assert.doesNotMatch(sessionBody(view).value, /earlier messages/);
});

Deno.test("streamErrors reads the error events of a .stream; questionText drops the terminal prompt", () => {
  const stream = [
    JSON.stringify({ type: "text", text: "error" }),
    JSON.stringify({ type: "error", message: "boom" }),
    "not json",
    JSON.stringify({ type: "done" }),
  ].join("\n");
  assert.deepEqual(streamErrors(stream), ["boom"]);
  assert.equal(
    questionText(
      "\nhs: the agent wants to run `rm -rf x` (rule bash(rm *)).\nAllow? [o]nce / [a]lways this session / [n]ever: ",
    ),
    "The agent wants to run `rm -rf x` (rule bash(rm *)).",
  );
});

Deno.test("plugin state badges: degraded is amber like a wait, failed red, active green, disabled plain", () => {
  const cls = (s: string) => stateBadge(s).value.match(/class="badge ?([a-z]*)"/)?.[1];
  assert.equal(cls("active"), "good");
  assert.equal(cls("degraded"), "wait");
  assert.equal(cls("failed"), "bad");
  assert.equal(cls("disabled"), "");
});
