/** Unit tests of the shell analyser, the rules and the policy algebra. */
import assert from "node:assert/strict";
import {
  analyseShell,
  evaluate,
  intersect,
  layerPolicy,
  narrowingPolicy,
  parseRules,
  type PolicyPlaces,
  resolvePolicy,
  subjectOf,
  unrestricted,
} from "../../core/mod.ts";

const places: PolicyPlaces = { workspace: "/w", home: "/h", userHome: "/u" };
const names = (s: string) => analyseShell(s).commands.map((c) => c[0]);

Deno.test("shell: wrappers, lists, pipes and substitutions expose every command", () => {
  assert.deepEqual(names("git status && ls | wc -l; echo hi"), ["git", "ls", "wc", "echo"]);
  assert.ok(names("env FOO=1 curl x").includes("curl"));
  assert.ok(names("env -i -u X curl x").includes("curl"));
  assert.ok(names(`bash -c "curl x"`).includes("curl"));
  assert.ok(names(`sh -lc 'a; curl x'`).includes("curl"));
  assert.ok(names("echo $(curl x)").includes("curl"));
  assert.ok(names('echo "$(curl x)"').includes("curl"));
  assert.ok(names("echo `curl x`").includes("curl"));
  assert.ok(names("echo x | xargs -n1 curl").includes("curl"));
  assert.ok(names("nohup time nice -n 5 timeout 10 curl x").includes("curl"));
  assert.ok(names("(cd /; curl x)").includes("curl"));
  assert.ok(names("{ curl x; }").includes("curl"));
  assert.ok(names("diff <(curl a) b").includes("curl"));
  assert.ok(names("find . -name x -exec curl {} \\;").includes("curl"));
  assert.ok(names("eval 'curl x'").includes("curl"));
  assert.ok(names("if true; then curl x; fi").includes("curl"));
  assert.ok(names("for f in a b; do curl $f; done").includes("curl"));
  assert.ok(names("FOO=1 /usr/bin/curl x").includes("/usr/bin/curl"));
  assert.deepEqual(analyseShell("echo hi > /tmp/x 2>&1").writes, ["/tmp/x"]);
});

Deno.test("shell: computed command names are uncertain", () => {
  assert.equal(analyseShell("c=curl; $c x").uncertain, true);
  assert.equal(analyseShell("$(echo curl) x").uncertain, true);
  assert.equal(analyseShell('bash -c "$CMD"').uncertain, true);
  assert.equal(analyseShell("git status").uncertain, false);
  assert.equal(analyseShell("echo 'unterminated").uncertain, true);
});

Deno.test("rules: deny first, globs over commands and paths, strictest when uncertain", () => {
  const rules = parseRules({
    deny: ["bash(curl *)", "read_file(**/.env)"],
    ask: ["bash(git push*)"],
    allow: ["bash(git *)", "write_file(src/**)"],
  }, "test");
  const d = (tool: string, input: unknown) =>
    evaluate(rules, subjectOf(tool, input, places), places);
  assert.equal(d("bash", { command: "git status" }).verdict, "allow");
  assert.equal(d("bash", { command: "git push origin" }).verdict, "ask");
  assert.equal(d("bash", { command: "git log | env curl x" }).verdict, "deny");
  assert.equal(d("bash", { command: "curl" }).verdict, "deny");
  assert.equal(d("bash", { command: "c=ls; $c" }).verdict, "deny");
  assert.equal(d("read_file", { path: ".env" }).verdict, "deny");
  assert.equal(d("read_file", { path: "a/b/.env" }).verdict, "deny");
  assert.equal(d("read_file", { path: "/elsewhere/.env" }).verdict, "deny");
  assert.equal(d("read_file", { path: "a/.envrc" }).verdict, "allow");
  assert.equal(d("write_file", { path: "src/x/y.ts" }).rule, "write_file(src/**)");
  assert.throws(() => parseRules({ deny: ["bash(unclosed"] }, "t"), /bad permission rule/);
});

Deno.test("policy: layers only narrow; presets; allows add to a layer's own preset", () => {
  assert.deepEqual(intersect("read", ["/a", "/b/c"], ["/a/x", "/b"]), ["/a/x", "/b/c"]);
  assert.deepEqual(intersect("net", ["api.x.com"], ["api.x.com:443", "y"]), ["api.x.com:443"]);
  assert.deepEqual(intersect("run", "all", ["git"]), ["git"]);
  const proc = { name: "process", origin: "t", policy: unrestricted() };
  const user = { name: "user", origin: "u", policy: layerPolicy({ preset: "read-only" }, places) };
  const r = resolvePolicy([proc, user]);
  assert.deepEqual(r.policy.write, [], "read-only writes nothing");
  assert.match(r.sources.write, /^user/);
  const ws = layerPolicy({ allow: { net: ["localhost:8080"], write: ["/tmp/out"] } }, places);
  assert.deepEqual(ws.net, ["localhost:8080"]);
  assert.deepEqual(ws.write, ["/tmp/out", "/w"]);
  const def = { name: "user", origin: "d", policy: layerPolicy({}, places) };
  assert.equal(resolvePolicy([proc, def]).policy.net.length, 0, "default is workspace");
});

Deno.test("policy: a project layer can only narrow (Part C: preset full in a project widens nothing)", () => {
  const proc = { name: "process", origin: "t", policy: unrestricted() };
  const user = { name: "user", origin: "u", policy: layerPolicy({ preset: "workspace" }, places) };
  const full = {
    name: "project",
    origin: "p",
    policy: narrowingPolicy({ preset: "full" }, places),
  };
  const r = resolvePolicy([proc, user, full]);
  assert.deepEqual(r.policy.write, ["/w"], "a project's preset full does not widen the user's");
  assert.deepEqual(r.policy.net, []);
  const srcOnly = {
    name: "project",
    origin: "p",
    policy: narrowingPolicy({ allow: { write: ["src"] } }, places),
  };
  const userFull = { name: "user", origin: "u", policy: layerPolicy({ preset: "full" }, places) };
  const n = resolvePolicy([proc, userFull, srcOnly]);
  assert.deepEqual(n.policy.write, ["/w/src"], "a project's allow list narrows to itself");
  assert.equal(n.policy.read, "all", "what a project does not mention stays as the user set it");
});
