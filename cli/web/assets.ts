/**
 * The web UI's static files, embedded as strings so that the compiled single
 * executable carries them (no file is read at run time, no build step): the
 * stylesheet (light and dark), a tiny theme script loaded before the page
 * paints, the page script (progressive enhancement: every form also works
 * without it) and the icon.
 *
 * The page script never turns data into markup: text from the session's
 * `.stream` and from state events is set with `textContent`; the only markup
 * it inserts is the server's own (escaped) rendering of a message.
 *
 * @module
 */

/** The stylesheet. */
export const APP_CSS = `
:root {
  color-scheme: light;
  --bg: #f6f7f9; --surface: #ffffff; --fg: #1f2328; --muted: #59636e; --border: #d1d9e0;
  --accent: #0969da; --accent-fg: #ffffff; --user: #eaf2ff; --tool: #f3f5f8; --code: #eff2f5;
  --ok: #1a7f37; --err: #cf222e; --warn: #9a6700; --err-bg: #ffebe9; --warn-bg: #fff8c5;
  --shadow: 0 1px 2px rgba(31, 35, 40, .06);
}
@media (prefers-color-scheme: dark) {
  :root:not([data-theme="light"]) {
    color-scheme: dark;
    --bg: #0d1117; --surface: #151b23; --fg: #e6edf3; --muted: #9198a1; --border: #3d444d;
    --accent: #4493f8; --accent-fg: #0d1117; --user: #132339; --tool: #11161d; --code: #1f2630;
    --ok: #3fb950; --err: #f85149; --warn: #d29922; --err-bg: #3c1618; --warn-bg: #37290b;
    --shadow: none;
  }
}
:root[data-theme="dark"] {
  color-scheme: dark;
  --bg: #0d1117; --surface: #151b23; --fg: #e6edf3; --muted: #9198a1; --border: #3d444d;
  --accent: #4493f8; --accent-fg: #0d1117; --user: #132339; --tool: #11161d; --code: #1f2630;
  --ok: #3fb950; --err: #f85149; --warn: #d29922; --err-bg: #3c1618; --warn-bg: #37290b;
  --shadow: none;
}
* { box-sizing: border-box; }
html { background: var(--bg); color: var(--fg); }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; }
a { color: var(--accent); }
code, pre, .mono { font-family: ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", Menlo, monospace; font-size: .86em; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: .4rem 0; padding: .5rem .7rem; background: var(--code); border-radius: 6px; }
code { background: var(--code); padding: .05rem .3rem; border-radius: 4px; }
h1 { font-size: 1.45rem; margin: .2rem 0 1rem; }
h2 { font-size: 1.15rem; margin: 1.6rem 0 .6rem; padding-bottom: .3rem; border-bottom: 1px solid var(--border); }
h3 { font-size: 1rem; margin: 1rem 0 .4rem; }
.skip { position: absolute; left: -999px; top: 0; }
.skip:focus { left: .5rem; top: .5rem; z-index: 10; background: var(--surface); padding: .4rem .8rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
header.top { display: flex; align-items: center; gap: 1rem; padding: .5rem 1.2rem; background: var(--surface); border-bottom: 1px solid var(--border); }
header.top nav { display: flex; align-items: center; gap: 1.2rem; flex: 1; flex-wrap: wrap; }
header.top ul { list-style: none; display: flex; gap: .3rem; margin: 0; padding: 0; flex-wrap: wrap; }
header.top li a { display: block; padding: .3rem .7rem; border-radius: 6px; color: var(--fg); text-decoration: none; }
header.top li a:hover { background: var(--tool); }
header.top li a[aria-current="page"] { background: var(--user); color: var(--accent); font-weight: 600; }
.brand { font-weight: 700; color: var(--fg); text-decoration: none; font-family: ui-monospace, "DejaVu Sans Mono", monospace; }
button, .button { font: inherit; font-size: .92rem; padding: .35rem .9rem; border-radius: 6px; border: 1px solid var(--border); background: var(--surface); color: var(--fg); cursor: pointer; text-decoration: none; display: inline-block; }
button:hover { border-color: var(--muted); }
button.primary { background: var(--accent); color: var(--accent-fg); border-color: transparent; font-weight: 600; }
button.danger { color: var(--err); }
button.small { font-size: .8rem; padding: .15rem .55rem; }
td.row-actions { white-space: nowrap; width: 1%; }
td.row-actions form.inline + form.inline { margin-left: .3rem; }
button:disabled { opacity: .5; cursor: default; }
button.theme { font-size: 1.1rem; padding: .2rem .55rem; }
main { max-width: 1000px; margin: 0 auto; padding: 1.2rem 1.2rem 2rem; }
.banner { max-width: 1000px; margin: .8rem auto 0; padding: .7rem 1rem; border: 1px solid var(--warn); background: var(--warn-bg); border-radius: 8px; }
.banner form { display: inline; }
.notice { padding: .6rem .9rem; border-radius: 8px; border: 1px solid var(--border); background: var(--surface); }
.notice.error { border-color: var(--err); background: var(--err-bg); }
.muted, .meta, .cut, .empty { color: var(--muted); }
.cut { font-size: .85rem; margin: .2rem 0; }
form.inline { display: inline; margin: 0 .2rem 0 0; }
label { font-weight: 600; display: block; margin-bottom: .3rem; }
textarea, input[type="text"] { width: 100%; font: inherit; padding: .5rem .6rem; border-radius: 6px; border: 1px solid var(--border); background: var(--surface); color: var(--fg); }
textarea { resize: vertical; min-height: 3.2rem; }
.row { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; margin-top: .5rem; }
.grow { flex: 1; }
table.data { border-collapse: collapse; width: 100%; font-size: .92rem; }
table.data th, table.data td { text-align: left; vertical-align: top; padding: .35rem .6rem; border-bottom: 1px solid var(--border); }
table.data th { color: var(--muted); font-weight: 600; font-size: .85rem; }
table.data td pre { margin: 0; }
table.providers td { overflow-wrap: anywhere; }
table.providers td:nth-child(2) { white-space: nowrap; }
table.providers td:last-child { width: 30%; }
.table-wrap { overflow-x: auto; }
dl.data { margin: .3rem 0; }
dl.data .field { display: grid; grid-template-columns: minmax(8rem, 14rem) 1fr; gap: .6rem; padding: .25rem 0; border-bottom: 1px dashed var(--border); }
dl.data dt { color: var(--muted); font-weight: 600; overflow-wrap: anywhere; }
dl.data dd { margin: 0; overflow-wrap: anywhere; }
ul.data { margin: .2rem 0; padding-left: 1.2rem; }
.badge { display: inline-block; font-size: .75rem; font-weight: 600; padding: .05rem .5rem; border-radius: 99px; border: 1px solid var(--border); color: var(--muted); white-space: nowrap; }
.badge.good { color: var(--ok); border-color: var(--ok); }
.badge.bad { color: var(--err); border-color: var(--err); }
.badge.wait { color: var(--warn); border-color: var(--warn); }
.sessions td a { font-family: ui-monospace, "DejaVu Sans Mono", monospace; }
.card { background: var(--surface); border: 1px solid var(--border); border-radius: 8px; padding: .8rem 1rem; margin: .7rem 0; box-shadow: var(--shadow); }
.card h3 { margin-top: 0; }
.prompt-section summary, .tool summary { cursor: pointer; }
details > summary { cursor: pointer; }
.session-head { display: flex; gap: 1rem; align-items: baseline; flex-wrap: wrap; }
.session-head h1 { margin-bottom: .3rem; }
#transcript { margin-bottom: 1rem; }
.msg { background: var(--surface); border: 1px solid var(--border); border-radius: 10px; padding: .55rem .9rem .7rem; margin: .65rem 0; box-shadow: var(--shadow); content-visibility: auto; contain-intrinsic-size: auto 90px; }
.msg-user { background: var(--user); }
.msg-tool { margin-left: 1.6rem; background: var(--tool); padding: .35rem .8rem; }
.msg-tool-error { border-color: var(--err); }
.msg-error { border-color: var(--err); background: var(--err-bg); }
.msg-live { border-style: dashed; }
.msg-head { display: flex; gap: .7rem; align-items: baseline; font-size: .82rem; margin-bottom: .2rem; }
.msg-head .role { font-weight: 700; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
.msg-user .msg-head .role { color: var(--accent); }
.seq { margin-left: auto; color: var(--muted); text-decoration: none; font-size: .8rem; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; }
.msg-summary { border-left: 4px solid var(--accent); }
.msg-summary .msg-head .role { color: var(--accent); }
.md { overflow-wrap: anywhere; }
.md > :first-child { margin-top: .15rem; }
.md > :last-child { margin-bottom: .1rem; }
.md p, .md ul, .md ol, .md blockquote, .md .table-wrap { margin: .45rem 0; }
.md ul, .md ol { padding-left: 1.5rem; }
.md li > p { margin: .2rem 0; }
.md li.md-task { list-style: none; margin-left: -1.2rem; }
.md blockquote { border-left: 3px solid var(--border); padding-left: .8rem; color: var(--muted); font-style: italic; }
.md .md-h { font-weight: 700; margin: .8rem 0 .35rem; }
.md .md-h1 { font-size: 1.2rem; } .md .md-h2 { font-size: 1.08rem; } .md .md-h3 { font-size: 1rem; }
.md hr { border: 0; border-top: 1px solid var(--border); margin: .8rem 0; }
.md .md-raw { white-space: pre-wrap; }
.md .md-image { color: var(--muted); }
.md .md-left { text-align: left; } .md .md-center { text-align: center; } .md .md-right { text-align: right; }
.md pre.md-code { white-space: pre; overflow-x: auto; overflow-wrap: normal; }
.md pre.md-code code { background: none; padding: 0; font-size: 1em; }
.hljs-keyword, .hljs-selector-tag, .hljs-tag, .hljs-name { color: #cf222e; }
.hljs-string, .hljs-regexp, .hljs-addition { color: #0a3069; }
.hljs-number, .hljs-literal, .hljs-symbol, .hljs-attr, .hljs-attribute { color: #0550ae; }
.hljs-built_in, .hljs-type, .hljs-title { color: #8250df; }
.hljs-comment, .hljs-meta { color: var(--muted); font-style: italic; }
.hljs-deletion { color: #82071e; }
:root[data-theme="dark"] .hljs-keyword, :root[data-theme="dark"] .hljs-tag { color: #ff7b72; }
:root[data-theme="dark"] .hljs-string, :root[data-theme="dark"] .hljs-regexp { color: #a5d6ff; }
:root[data-theme="dark"] .hljs-number, :root[data-theme="dark"] .hljs-literal, :root[data-theme="dark"] .hljs-attr { color: #79c0ff; }
:root[data-theme="dark"] .hljs-built_in, :root[data-theme="dark"] .hljs-type, :root[data-theme="dark"] .hljs-title { color: #d2a8ff; }
@media (prefers-color-scheme: dark) {
  :root:not([data-theme="light"]) .hljs-keyword, :root:not([data-theme="light"]) .hljs-tag { color: #ff7b72; }
  :root:not([data-theme="light"]) .hljs-string, :root:not([data-theme="light"]) .hljs-regexp { color: #a5d6ff; }
  :root:not([data-theme="light"]) .hljs-number, :root:not([data-theme="light"]) .hljs-literal, :root:not([data-theme="light"]) .hljs-attr { color: #79c0ff; }
  :root:not([data-theme="light"]) .hljs-built_in, :root:not([data-theme="light"]) .hljs-type, :root:not([data-theme="light"]) .hljs-title { color: #d2a8ff; }
}
.thinking { color: var(--muted); margin: .3rem 0; }
.thinking .text { font-style: italic; border-left: 3px solid var(--border); padding-left: .7rem; }
.call { border: 1px solid var(--border); border-radius: 8px; padding: .35rem .6rem; margin: .45rem 0; background: var(--tool); }
.call-head { display: flex; gap: .5rem; align-items: baseline; flex-wrap: wrap; }
.tool-name { font-weight: 700; font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: .88rem; }
.call-summary { background: none; padding: 0; color: var(--muted); overflow-wrap: anywhere; }
.call-input summary { font-size: .8rem; color: var(--muted); }
.result > summary { display: flex; gap: .5rem; align-items: baseline; list-style: none; }
.result > summary::-webkit-details-marker { display: none; }
.result > summary::before { content: "▸"; color: var(--muted); }
.result[open] > summary::before { content: "▾"; }
.result .preview { color: var(--muted); font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: .82rem; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; flex: 1; min-width: 0; }
.status { font-size: .75rem; font-weight: 700; text-transform: uppercase; }
.status-ok { color: var(--ok); }
.status-error { color: var(--err); }
#live:empty { display: none; }
.composer { position: sticky; bottom: 0; background: var(--bg); padding: .7rem 0 .9rem; border-top: 1px solid var(--border); }
#status { margin: 0 0 .5rem; font-size: .9rem; color: var(--muted); min-height: 1.4em; }
#status.working::before { content: ""; display: inline-block; width: .6rem; height: .6rem; margin-right: .45rem; border-radius: 50%; background: var(--accent); animation: pulse 1s ease-in-out infinite; }
@keyframes pulse { 50% { opacity: .25; } }
@media (prefers-reduced-motion: reduce) { #status.working::before { animation: none; } }
.ask { border: 2px solid var(--warn); background: var(--warn-bg); border-radius: 10px; padding: .7rem .9rem; margin: .6rem 0; }
.ask p { margin: 0 0 .5rem; font-weight: 600; }
.ask button { margin-right: .4rem; }
.floor-table td:first-child { font-weight: 600; white-space: nowrap; }
.stage-hooks ol { margin: .2rem 0; padding-left: 1.4rem; }
.replaced { text-decoration: line-through; color: var(--muted); }
.grid2 { display: grid; grid-template-columns: repeat(auto-fit, minmax(280px, 1fr)); gap: .8rem; }
.result-box { margin: .8rem 0; }
@media (max-width: 640px) { .msg-tool { margin-left: .6rem; } dl.data .field { grid-template-columns: 1fr; } }
`;

/** Applies the stored theme before the first paint (loaded synchronously in `<head>`). */
export const THEME_JS = `(function () {
  try {
    var t = localStorage.getItem("hs-theme");
    if (t === "light" || t === "dark") document.documentElement.setAttribute("data-theme", t);
  } catch (e) { /* storage unavailable: automatic */ }
})();
`;

/** The page script. */
export const APP_JS = `(function () {
  "use strict";
  function $(s, r) { return (r || document).querySelector(s); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }

  // --- theme: automatic -> light -> dark
  var THEMES = ["auto", "light", "dark"];
  var themeButton = $("#theme");
  function storedTheme() {
    try { return localStorage.getItem("hs-theme") || "auto"; } catch (e) { return "auto"; }
  }
  function applyTheme(t) {
    if (t === "auto") document.documentElement.removeAttribute("data-theme");
    else document.documentElement.setAttribute("data-theme", t);
    if (themeButton) {
      themeButton.setAttribute("aria-label", "Theme: " + (t === "auto" ? "automatic" : t));
    }
  }
  if (themeButton) {
    applyTheme(storedTheme());
    themeButton.addEventListener("click", function () {
      var next = THEMES[(THEMES.indexOf(storedTheme()) + 1) % THEMES.length];
      try { localStorage.setItem("hs-theme", next); } catch (e) { /* not stored */ }
      applyTheme(next);
    });
  }

  // --- forms: posted with fetch (JSON answer), so the page is not reloaded
  function post(form, data) {
    return fetch(form.action, {
      method: "POST",
      body: new URLSearchParams(data),
      headers: { accept: "application/json" },
      credentials: "same-origin",
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (j) {
        if (!r.ok) throw new Error(j.error || ("HTTP " + r.status));
        return j;
      });
    });
  }
  function formError(form, message) {
    var box = form.querySelector(".form-error");
    if (!box) {
      box = el("p", "notice error form-error");
      box.setAttribute("role", "alert");
      form.appendChild(box);
    }
    box.textContent = message;
    box.hidden = !message;
  }
  function enhance(form, ok) {
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      // the data first: a disabled button is not part of a form's data
      var data = e.submitter ? new FormData(form, e.submitter) : new FormData(form);
      // the form's own buttons (form.elements: also those outside it that name it)
      var buttons = Array.prototype.filter.call(form.elements, function (x) {
        return x.tagName === "BUTTON" && !x.disabled;
      });
      buttons.forEach(function (b) { b.disabled = true; });
      formError(form, "");
      post(form, data).then(function (j) {
        buttons.forEach(function (b) { b.disabled = false; });
        ok(j);
      }, function (err) {
        buttons.forEach(function (b) { b.disabled = false; });
        formError(form, err.message);
      });
    });
  }

  var newSession = $("#new-session");
  if (newSession) {
    enhance(newSession, function (j) {
      if (j.session) location.href = "/s/" + encodeURIComponent(j.session);
    });
    ctrlEnter(newSession);
  }
  function ctrlEnter(form) {
    var area = form.querySelector("textarea");
    if (!area) return;
    area.addEventListener("keydown", function (e) {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        form.requestSubmit();
      }
    });
  }

  var main = $("main[data-session]");
  if (main) follow(main);

  function follow(main) {
    var id = main.getAttribute("data-session");
    var transcript = $("#transcript");
    var live = $("#live");
    var status = $("#status");
    var asks = $("#asks");
    var compose = $("#compose");
    var cancelForm = $("#cancel");
    var cancelButton = $("#cancel-btn");
    var last = Number(main.getAttribute("data-last") || "0");
    var state = { running: false, asks: [] };
    var streaming = false;
    var connected = true;
    var shownError = "";

    function nearBottom() {
      return window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 150;
    }
    function stick(fn) {
      var was = nearBottom();
      fn();
      if (was) window.scrollTo(0, document.documentElement.scrollHeight);
    }
    function clearLive() {
      live.textContent = "";
    }
    function liveBlock(cls) {
      var box = live.lastElementChild;
      if (!box || !box.classList.contains("live-" + cls)) {
        if (!live.firstElementChild) {
          var head = el("header", "msg-head");
          head.appendChild(el("span", "role", "Assistant"));
          head.appendChild(el("span", "meta", "streaming…"));
          live.appendChild(head);
        }
        if (cls === "thinking") {
          box = el("details", "thinking live-thinking");
          box.open = true;
          box.appendChild(el("summary", null, "Thinking"));
          box.appendChild(el("div", "text"));
        } else {
          box = el("div", "text live-text");
        }
        live.appendChild(box);
      }
      return cls === "thinking" ? box.querySelector(".text") : box;
    }
    function addError(message) {
      var a = el("article", "msg msg-error");
      a.setAttribute("role", "alert");
      var head = el("header", "msg-head");
      head.appendChild(el("span", "role", "Error"));
      a.appendChild(head);
      a.appendChild(el("div", "text", message));
      transcript.appendChild(a);
    }
    function onStream(ev) {
      if (!ev || typeof ev.type !== "string") return;
      switch (ev.type) {
        case "text":
          streaming = true;
          liveBlock("text").textContent += String(ev.text || "");
          break;
        case "thinking":
          streaming = true;
          liveBlock("thinking").textContent += String(ev.text || "");
          break;
        case "tool_start": {
          streaming = true;
          liveBlock("text");
          var call = el("div", "call");
          var head = el("div", "call-head");
          head.appendChild(el("span", "tool-name", String(ev.name || "")));
          head.appendChild(el("span", "badge wait", "running"));
          call.appendChild(head);
          call.appendChild(el("pre", "json", JSON.stringify(ev.input === undefined ? {} : ev.input, null, 2)));
          live.appendChild(call);
          break;
        }
        case "tool_output":
          live.appendChild(el("pre", "out", String(ev.text || "")));
          break;
        case "tool_done":
        case "stop":
          clearLive();
          break;
        case "error":
          clearLive();
          addError(String(ev.message || "error"));
          break;
        case "done":
          clearLive();
          streaming = false;
          break;
      }
      render();
    }
    function askForm(a) {
      var form = el("form", "ask");
      form.method = "post";
      form.action = "/ask/" + encodeURIComponent(a.id);
      form.setAttribute("data-ask", a.id);
      form.setAttribute("role", "alertdialog");
      var q = el("p", null, a.question);
      q.id = "ask-" + a.id;
      form.setAttribute("aria-labelledby", q.id);
      form.appendChild(q);
      [["once", "Allow once", "primary"], ["always", "Always allow (this session)", ""],
        ["never", "Deny", "danger"]].forEach(function (b) {
        var button = el("button", b[2], b[1]);
        button.type = "submit";
        button.name = "answer";
        button.value = b[0];
        form.appendChild(button);
      });
      enhance(form, function () { form.remove(); });
      return form;
    }
    function render() {
      var waiting = state.asks && state.asks.length > 0;
      var working = state.running || streaming;
      status.className = working && !waiting ? "working" : "";
      status.textContent = !connected ? "Reconnecting…"
        : waiting ? "Waiting for your answer"
        : working ? "Working…"
        : state.outcome === "cancelled" ? "Cancelled"
        : state.outcome === "error" ? "The last turn failed"
        : "Idle";
      if (cancelButton) cancelButton.disabled = !state.running;
      var want = {};
      (state.asks || []).forEach(function (a) { want[a.id] = a; });
      var have = asks.querySelectorAll("form[data-ask]");
      for (var i = 0; i < have.length; i++) {
        var aid = have[i].getAttribute("data-ask");
        if (!want[aid]) have[i].remove(); else delete want[aid];
      }
      Object.keys(want).forEach(function (k) {
        var f = askForm(want[k]);
        asks.appendChild(f);
        if (document.activeElement === document.body) f.querySelector("button").focus();
      });
      if (state.error && state.error !== shownError) {
        shownError = state.error;
        stick(function () { addError(state.error); });
      }
    }

    var es = new EventSource("/s/" + encodeURIComponent(id) + "/events?after=" + last);
    es.addEventListener("msg", function (e) {
      var d = JSON.parse(e.data);
      if (d.seq <= last) return;
      last = d.seq;
      stick(function () {
        transcript.insertAdjacentHTML("beforeend", d.html);
        if (d.role === "assistant") clearLive();
      });
    });
    es.addEventListener("stream", function (e) {
      var ev = JSON.parse(e.data);
      stick(function () { onStream(ev); });
    });
    es.addEventListener("reset", function () { clearLive(); });
    es.addEventListener("state", function (e) {
      state = JSON.parse(e.data);
      render();
    });
    es.addEventListener("open", function () { connected = true; render(); });
    es.addEventListener("error", function () { connected = false; render(); });
    window.addEventListener("pagehide", function () { es.close(); });

    if (compose) {
      enhance(compose, function () {
        var area = compose.querySelector("textarea");
        area.value = "";
        area.focus();
        state.running = true;
        state.outcome = undefined;
        render();
      });
      ctrlEnter(compose);
    }
    // the answer re-enables the button: the turn's state decides (it may be over already)
    if (cancelForm) enhance(cancelForm, function () { render(); });
    var forms = asks.querySelectorAll("form[data-ask]");
    for (var j = 0; j < forms.length; j++) {
      (function (f) { enhance(f, function () { f.remove(); }); })(forms[j]);
    }
    if (!location.hash) window.scrollTo(0, document.documentElement.scrollHeight);
    render();
  }
})();
`;

/** The tab icon. */
export const ICON_SVG =
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#0969da"/><text x="16" y="22" font-family="monospace" font-size="15" font-weight="700" text-anchor="middle" fill="#fff">hs</text></svg>`;

/** The assets by path, with their content types. */
export const ASSETS: Readonly<Record<string, { type: string; body: string }>> = {
  "/assets/app.css": { type: "text/css; charset=utf-8", body: APP_CSS },
  "/assets/app.js": { type: "text/javascript; charset=utf-8", body: APP_JS },
  "/assets/theme.js": { type: "text/javascript; charset=utf-8", body: THEME_JS },
  "/assets/icon.svg": { type: "image/svg+xml", body: ICON_SVG },
};

/** FNV-1a over the text: a short, stable fingerprint (not a security measure). */
function fingerprint(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36);
}

/**
 * Changes whenever an asset changes (the cache-busting query of their URLs: browsers
 * keep the assets for a day), computed from their text so it cannot be forgotten.
 */
export const ASSET_VERSION: string = fingerprint(
  Object.values(ASSETS).map((a) => a.body).join("\u0000"),
);
