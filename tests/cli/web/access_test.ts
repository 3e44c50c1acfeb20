/**
 * Who may talk to `hs web`: the token (query, cookie, bearer), the Host header
 * against DNS rebinding, the Origin against other sites, methods, and a POST
 * without Origin. Requests are built by hand: no server is needed.
 */
import assert from "node:assert/strict";
import {
  cookieValue,
  hostNames,
  isLoopback,
  newToken,
  sameSecret,
  WebAccess,
} from "../../../cli/web/access.ts";

const TOKEN = newToken();
const PORT = 41234;
const access = new WebAccess({ token: TOKEN, hostname: "127.0.0.1", port: PORT });

function check(
  path: string,
  headers: Record<string, string> = {},
  method = "GET",
  a: WebAccess = access,
) {
  const req = new Request(`http://127.0.0.1:${PORT}${path}`, {
    method,
    headers: { host: `127.0.0.1:${PORT}`, ...headers },
  });
  return a.admit(req, new URL(req.url));
}

Deno.test("tokens are long and random; the comparison needs every character", () => {
  assert.equal(TOKEN.length, 43);
  assert.notEqual(newToken(), TOKEN);
  assert.ok(sameSecret(TOKEN, TOKEN));
  assert.ok(!sameSecret(TOKEN, TOKEN.slice(0, -1) + (TOKEN.endsWith("a") ? "b" : "a")));
  assert.ok(!sameSecret(TOKEN, TOKEN + "x"));
});

Deno.test("without the token a request is refused; the token in the query, a cookie or a bearer header admits", () => {
  assert.deepEqual(check("/").ok, false);
  assert.equal((check("/") as { status: number }).status, 401);
  assert.equal((check("/?token=wrong") as { status: number }).status, 401);
  assert.deepEqual(check(`/?token=${TOKEN}`), { ok: true, via: "query" });
  assert.deepEqual(check("/", { cookie: `other=1; ${access.cookieName}=${TOKEN}` }), {
    ok: true,
    via: "cookie",
  });
  assert.equal(check("/", { cookie: `hs_web_1=${TOKEN}` }).ok, false); // another port's cookie
  assert.deepEqual(check("/", { authorization: `Bearer ${TOKEN}` }), { ok: true, via: "bearer" });
  assert.equal(check("/", { authorization: "Bearer nope" }).ok, false);
  assert.match(access.cookie(), /HttpOnly; SameSite=Strict/);
  assert.equal(cookieValue("a=1; b = 2", "b"), "2");
});

Deno.test("a rebinding Host header is refused, even with the token", () => {
  const t = { authorization: `Bearer ${TOKEN}` };
  for (
    const host of [`evil.example:${PORT}`, `127.0.0.1.evil.example:${PORT}`, "127.0.0.1:1", ""]
  ) {
    const r = check("/", { ...t, host });
    assert.equal(r.ok, false, host);
    assert.equal((r as { status: number }).status, 403);
  }
  for (const host of [`127.0.0.1:${PORT}`, `localhost:${PORT}`, `LOCALHOST:${PORT}`]) {
    assert.equal(check("/", { ...t, host }).ok, true, host);
  }
});

Deno.test("another origin is refused; the same origin and navigations are admitted", () => {
  const c = { cookie: `${access.cookieName}=${TOKEN}` };
  assert.equal(check("/", { ...c, origin: "http://evil.example" }).ok, false);
  assert.equal(check("/", { ...c, origin: `http://localhost:${PORT}` }).ok, false);
  assert.equal(check("/", { ...c, origin: "null" }).ok, false);
  assert.equal(check("/", { ...c, origin: `http://127.0.0.1:${PORT}` }).ok, true);
  // a fetch from another site (no Origin on a GET) is refused, a link followed is not
  assert.equal(check("/s/x/events", { ...c, "sec-fetch-site": "cross-site" }).ok, false);
  assert.equal(check("/s/x/events", { ...c, "sec-fetch-site": "same-site" }).ok, false);
  assert.equal(
    check("/", { ...c, "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate" }).ok,
    true,
  );
  assert.equal(check("/", { ...c, "sec-fetch-site": "same-origin" }).ok, true);
});

Deno.test("a POST needs its Origin (a browser's) or a bearer token; other methods are refused", () => {
  const c = { cookie: `${access.cookieName}=${TOKEN}` };
  assert.equal(check("/new", c, "POST").ok, false);
  assert.equal(check("/new", { ...c, origin: `http://127.0.0.1:${PORT}` }, "POST").ok, true);
  assert.equal(check("/new", { authorization: `Bearer ${TOKEN}` }, "POST").ok, true);
  for (const m of ["OPTIONS", "PUT", "DELETE", "PATCH"]) {
    const r = check("/", { ...c, origin: `http://127.0.0.1:${PORT}` }, m);
    assert.equal((r as { status: number }).status, 405, m);
  }
});

Deno.test("names a bind address answers to: loopback names, or IP literals on a wildcard", () => {
  assert.deepEqual([...hostNames("127.0.0.1")].sort(), ["127.0.0.1", "[::1]", "localhost"]);
  assert.deepEqual([...hostNames("192.168.1.5")], ["192.168.1.5"]);
  assert.ok(isLoopback("127.0.0.2") && isLoopback("::1") && !isLoopback("10.0.0.1"));
  const wild = new WebAccess({ token: TOKEN, hostname: "0.0.0.0", port: PORT, machine: "box" });
  const t = { authorization: `Bearer ${TOKEN}` };
  for (
    const host of [`10.1.2.3:${PORT}`, `[fe80::1]:${PORT}`, `box:${PORT}`, `localhost:${PORT}`]
  ) {
    assert.equal(check("/", { ...t, host }, "GET", wild).ok, true, host);
  }
  assert.equal(check("/", { ...t, host: `evil.example:${PORT}` }, "GET", wild).ok, false);
  const named = new WebAccess({ token: TOKEN, hostname: "10.0.0.7", port: 80 });
  assert.equal(named.hostAllowed("10.0.0.7"), true); // port 80 may be left out
  assert.equal(named.hostAllowed("localhost:80"), false);
});
