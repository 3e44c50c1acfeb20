/**
 * `hs web` through `deno task hs` (the launcher grants the listen address):
 * the printed address carries the token; requests without it, with a foreign
 * Origin or a rebinding Host are refused; no CORS; the CSP is on every answer;
 * a turn started over HTTP streams from `.stream` as server-sent events; a
 * bad `--port` is a usage error; `--host` names another address. The browser
 * walks through the pages in web_browser_test.ts.
 */
import assert from "node:assert/strict";
import { computeGrant } from "../../cli/launch/grant.ts";
import { loopbackWorkspace, REPO } from "../support/workspace.ts";
import { rawRequest, readEvents, startHsWeb } from "../support/web.ts";
import { runHs } from "../support/workspace.ts";

Deno.test("hs web: the token, Host and Origin checks, no CORS, the CSP; a turn streams as server-sent events", async () => {
  const lb = await loopbackWorkspace([
    { text: "Counting the words of notes.txt for you.", chunkSize: 5 },
  ]);
  const web = await startHsWeb([], { cwd: lb.w.ws, env: lb.w.env });
  try {
    const { origin, token } = web;
    assert.match(origin, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(token.length, 43);
    const port = new URL(origin).port;
    const host = `127.0.0.1:${port}`;

    // no token, a wrong token: refused, and the answer says how to get in
    const none = await fetch(`${origin}/`);
    assert.equal(none.status, 401);
    assert.match(await none.text(), /needs the token hs web printed/);
    const wrong = await fetch(`${origin}/?token=${"x".repeat(43)}`, { redirect: "manual" });
    assert.equal(wrong.status, 401);
    await wrong.body?.cancel();

    // the printed address sets the cookie and drops the token from the address bar
    const first = await fetch(web.url, { redirect: "manual" });
    assert.equal(first.status, 303);
    assert.equal(first.headers.get("location"), "/");
    const cookie = first.headers.get("set-cookie") ?? "";
    assert.match(
      cookie,
      new RegExp(`^hs_web_${port}=${token}; Path=/; HttpOnly; SameSite=Strict$`),
    );
    await first.body?.cancel();
    const page = await fetch(`${origin}/`, { headers: { cookie: cookie.split(";")[0] } });
    assert.equal(page.status, 200);
    const csp = page.headers.get("content-security-policy") ?? "";
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(page.headers.get("x-content-type-options"), "nosniff");
    // not no-referrer: Chromium would send `Origin: null` with form posts, which are refused
    assert.equal(page.headers.get("referrer-policy"), "same-origin");
    assert.equal(page.headers.get("access-control-allow-origin"), null);
    assert.match(await page.text(), /<h1>Sessions<\/h1>/);

    // DNS rebinding: the browser sends the attacker's name as Host, with the cookie even
    const auth = { authorization: `Bearer ${token}` };
    const rebound = await rawRequest(origin, "GET", "/", {
      host: `attacker.example:${port}`,
      cookie: cookie.split(";")[0],
    });
    assert.equal(rebound.status, 403);
    assert.match(rebound.body, /not this server/);
    const ok = await rawRequest(origin, "GET", "/context", { host, ...auth });
    assert.equal(ok.status, 200);
    // every stage the kernel knows is listed, compaction's included (one list, in core)
    assert.match(ok.body, /10-summarize/);

    // a foreign Origin, a cross-site fetch, a preflight: refused, never a CORS header
    for (
      const [method, headers] of [
        ["GET", { host, ...auth, origin: "http://attacker.example" }],
        ["POST", { host, cookie: cookie.split(";")[0], origin: "http://attacker.example" }],
        ["GET", { host, cookie: cookie.split(";")[0], "sec-fetch-site": "cross-site" }],
        ["OPTIONS", {
          host,
          origin: "http://attacker.example",
          "access-control-request-method": "POST",
        }],
        ["POST", { host, cookie: cookie.split(";")[0] }], // a POST without its Origin
      ] as [string, Record<string, string>][]
    ) {
      const r = await rawRequest(origin, method, "/new", headers);
      assert.ok(
        r.status === 403 || r.status === 405,
        `${method} ${JSON.stringify(headers)}: ${r.status}`,
      );
      assert.doesNotMatch(r.head, /access-control-allow/i);
    }

    // a turn started over HTTP; its text arrives from .stream, then the saved message
    const started = await fetch(`${origin}/new`, {
      method: "POST",
      headers: {
        ...auth,
        accept: "application/json",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ message: "How many words?" }),
    });
    assert.equal(started.status, 201);
    const { session } = await started.json();
    assert.match(session, /^\d{8}-\d{6}-\d+/);
    const res = await fetch(`${origin}/s/${session}/events?after=0`, { headers: auth });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/event-stream; charset=utf-8");
    const events = await readEvents(
      res,
      (e) => e.some((x) => x.event === "msg" && JSON.parse(x.data).role === "assistant"),
    );
    const msgs = events.filter((e) => e.event === "msg").map((e) => JSON.parse(e.data));
    assert.equal(msgs[0].role, "user");
    assert.match(msgs[0].html, /How many words\?/);
    assert.equal(msgs[0].seq, 1);
    assert.equal(events.find((e) => e.event === "msg")?.id, "1");
    const assistant = msgs.find((m) => m.role === "assistant");
    assert.match(assistant.html, /Counting the words of notes\.txt for you\./);
    assert.ok(events.some((e) => e.event === "state"));

    // the session page renders; an unknown session and a path outside the sessions are 404
    const view = await fetch(`${origin}/s/${session}`, { headers: auth });
    assert.match(await view.text(), /data-session="[^"]+" data-last="2"/);
    for (const p of ["/s/nope", "/s/..%2f..%2fetc", "/p/nope", "/nothing"]) {
      const r = await fetch(`${origin}${p}`, { headers: auth });
      assert.equal(r.status, 404, p);
      await r.body?.cancel();
    }
  } finally {
    const r = await web.stop();
    await lb.close();
    assert.equal(r.code, 0, r.stderr);
  }
});

Deno.test("hs web: a bad --port is a usage error; --host listens on another address", async () => {
  const lb = await loopbackWorkspace([]);
  try {
    const bad = await runHs(["web", "--port", "http"], { cwd: lb.w.ws, env: lb.w.env });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--port http is not a port/);
    const web = await startHsWeb(["--host", "127.0.0.2"], { cwd: lb.w.ws, env: lb.w.env });
    try {
      assert.match(web.origin, /^http:\/\/127\.0\.0\.2:\d+$/);
      const r = await fetch(`${web.origin}/plugins`, {
        headers: { authorization: `Bearer ${web.token}` },
      });
      assert.equal(r.status, 200);
      assert.match(await r.text(), /<h1>Plugins<\/h1>/);
      assert.doesNotMatch(web.stderr(), /not only this machine/);
    } finally {
      const r = await web.stop();
      assert.equal(r.code, 0, r.stderr);
    }
  } finally {
    await lb.close();
  }
});

Deno.test("the launcher grants hs web its listen address (and the opener with --open) and nothing wider", () => {
  const env = { HOME: "/nonexistent", HARNESS_HOME: "/nonexistent/h", PATH: "/usr/bin:/bin" };
  const grant = (argv: string[]) => computeGrant({ argv, env, cwd: "/tmp", root: REPO });
  assert.ok((grant(["web"]).net as string[]).includes("127.0.0.1"));
  assert.ok((grant(["web", "--port", "8123"]).net as string[]).includes("127.0.0.1:8123"));
  assert.ok((grant(["web", "--host", "::1", "--port", "9"]).net as string[]).includes("[::1]:9"));
  assert.ok(
    (grant(["--floor", "workspace", "web", "--host=10.0.0.7"]).net as string[]).includes(
      "10.0.0.7",
    ),
  );
  assert.ok(!(grant(["tools"]).net as string[]).includes("127.0.0.1"));
  // a port that is not one is left to hs to report (Deno would refuse the flag itself)
  assert.ok((grant(["web", "--port", "99999"]).net as string[]).includes("127.0.0.1"));
  assert.ok((grant(["web", "--port", "http"]).net as string[]).includes("127.0.0.1"));
  assert.ok(!(grant(["say", "web", "--port", "1"]).net as string[]).includes("127.0.0.1:1"));
  const opener = grant(["web", "--open"]).run as string[];
  const hasOpener = ["/usr/bin/xdg-open", "/bin/xdg-open"].some((p) => {
    try {
      return Deno.statSync(p).isFile;
    } catch {
      return false;
    }
  });
  assert.equal(opener.some((p) => p.endsWith("/xdg-open")), hasOpener);
});
