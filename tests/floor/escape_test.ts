/**
 * The escape suite: under the default `workspace` preset a scripted model asks
 * for everything a tool must not do. Each attempt must come back as a tool
 * error while the session goes on, and must leave no trace on the host
 * (no secret in any result, no file written outside, no connection made).
 * Runs with bubblewrap (the OS sandbox confines children) and without it
 * (children are refused); the escape count is 0 either way.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO } from "../support/workspace.ts";
import { BWRAP_OK, type FloorRig, makeRig, runCalls, SECRETS } from "./_helpers.ts";

interface Attempt {
  id: string;
  what: string;
  name: string;
  input: Record<string, unknown>;
  /**
   * Listing the environment is not itself refused — the secret is simply not in it;
   * for those attempts the outcome is checked by the secret's absence only.
   */
  secretOnly?: boolean;
}

function attempts(rig: FloorRig): Attempt[] {
  const { root, home } = rig.w;
  const out = join(root, "escaped.txt");
  const a: Attempt[] = [];
  const add = (what: string, name: string, input: Record<string, unknown>, secretOnly = false) =>
    a.push({
      id: `toolu_${String(a.length + 1).padStart(2, "0")}`,
      what,
      name,
      input,
      secretOnly,
    });
  // reading outside the workspace
  add("read /etc/shadow", "read_file", { path: "/etc/shadow" });
  add("read a secret outside the workspace", "read_file", { path: join(root, "secret.txt") });
  add("../ traversal", "read_file", { path: "../secret.txt" });
  add("symlink inside → outside", "read_file", { path: "link-out" });
  add("read .env", "read_file", { path: ".env" });
  add("read $HARNESS_HOME/.auth.json", "read_file", { path: join(home, ".auth.json") });
  add("bash cat outside", "bash", { command: `cat ${join(root, "secret.txt")}` });
  add("bash cat via symlink", "bash", { command: "cat link-out" });
  add("bash cat auth.json", "bash", { command: `cat ${join(home, ".auth.json")}` });
  // writing outside the workspace
  add("write_file outside", "write_file", { path: out, content: "x" });
  add("write_file via ../", "write_file", { path: "../escaped.txt", content: "x" });
  add("write_file through symlink", "write_file", { path: "link-out", content: "x" });
  add("edit_file outside", "edit_file", {
    path: join(root, "secret.txt"),
    edits: [{ type: "append_file", content: "x" }],
  });
  add("bash echo > /tmp/x", "bash", { command: `echo pwned > ${out}` });
  add("bash cp", "bash", { command: `cp notes.txt ${out}` });
  add("bash tee", "bash", { command: `echo pwned | tee ${out}` });
  add("bash python3 -c", "bash", {
    command: `python3 -c "open('${out}','w').write('pwned')"`,
  });
  // the harness's own files
  add("overwrite $HARNESS_HOME/.auth.json", "write_file", {
    path: join(home, ".auth.json"),
    content: "{}",
  });
  add("overwrite $HARNESS_HOME/trust.json (bash)", "bash", {
    command: `echo '{}' > ${join(home, "trust.json")}`,
  });
  add("write into the harness install", "write_file", {
    path: join(REPO, ".escape-probe"),
    content: "x",
  });
  // network
  add("curl loopback (denied rule)", "bash", {
    command: `curl -s -m 2 http://127.0.0.1:${rig.port}/`,
  });
  add("python socket to loopback", "bash", {
    command: `python3 -c "import socket; socket.create_connection(('127.0.0.1', ${rig.port}), 2)"`,
  });
  add("bash /dev/tcp to loopback", "bash", { command: `exec 3<>/dev/tcp/127.0.0.1/${rig.port}` });
  // environment secrets
  add("env", "bash", { command: "env" }, true);
  add("printenv", "bash", { command: "printenv HS_SECRET_TOKEN" });
  add(
    "/proc/self/environ",
    "bash",
    { command: "cat /proc/self/environ; cat /proc/$PPID/environ" },
    true,
  );
  // a denied command behind wrappers
  add("curl behind env", "bash", { command: `env curl -s http://127.0.0.1:${rig.port}/` });
  add("curl behind bash -c", "bash", {
    command: `bash -c "curl -s http://127.0.0.1:${rig.port}/"`,
  });
  add("curl behind $(…)", "bash", { command: `echo $(curl -s http://127.0.0.1:${rig.port}/)` });
  add("curl behind a pipe", "bash", { command: `echo x | curl -s -d @- 127.0.0.1:${rig.port}` });
  add("curl behind sh -c + xargs", "bash", {
    command: `echo 127.0.0.1:${rig.port} | xargs -I{} sh -c 'curl -s {}'`,
  });
  add("computed command name", "bash", { command: `c=curl; $c -s 127.0.0.1:${rig.port}` });
  // an executable tool trying the same
  add("tool reads outside", "evil", { action: "read", arg: join(root, "secret.txt") });
  add("tool writes outside", "evil", { action: "write", arg: out });
  add("tool writes auth.json", "evil", { action: "write", arg: join(home, ".auth.json") });
  add("tool reaches loopback", "evil", { action: "net", arg: String(rig.port) });
  add("tool reads env", "evil", { action: "env", arg: "" }, true);
  return a;
}

Deno.test("escape suite: every attempt is refused, the session goes on, 0 escapes", async () => {
  const rig = await makeRig();
  try {
    const list = attempts(rig);
    const { run, outcomes } = await runCalls(
      rig,
      list.map((x) => ({ id: x.id, name: x.name, input: x.input })),
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /"type":"done"|done/);
    const out = join(rig.w.root, "escaped.txt");
    let escapes = 0;
    const report: string[] = [];
    for (const x of list) {
      const o = outcomes.get(x.id);
      const problems: string[] = [];
      if (!o) problems.push("no result");
      else {
        if (!o.error && !x.secretOnly) problems.push("not an error");
        for (const s of Object.values(SECRETS)) if (o.result.includes(s)) problems.push("secret");
      }
      if (problems.length) {
        escapes++;
        report.push(`ESCAPE ${x.id} ${x.what}: ${problems.join(", ")}: ${o?.result.slice(0, 300)}`);
      }
    }
    const hostEffects: string[] = [];
    try {
      Deno.statSync(out);
      hostEffects.push("a file was written outside the workspace");
    } catch { /* good */ }
    try {
      Deno.statSync(join(REPO, ".escape-probe"));
      Deno.removeSync(join(REPO, ".escape-probe"));
      hostEffects.push("the harness install was written");
    } catch { /* good */ }
    if (Deno.readTextFileSync(join(rig.w.root, "secret.txt")) !== SECRETS.outside + "\n") {
      hostEffects.push("the outside secret was modified");
    }
    if (!Deno.readTextFileSync(join(rig.w.home, ".auth.json")).includes(SECRETS.auth)) {
      hostEffects.push(".auth.json was modified");
    }
    if (Deno.readTextFileSync(join(rig.w.home, "trust.json")).trim() === "{}") {
      hostEffects.push("trust.json was modified");
    }
    if (rig.connections() > 0) hostEffects.push(`${rig.connections()} loopback connection(s)`);
    escapes += hostEffects.length;
    console.log(
      `floor escape suite (${BWRAP_OK ? "bubblewrap" : "no OS sandbox: refusal path"}): ` +
        `${list.length} attempts, ${escapes} escapes`,
    );
    assert.equal(escapes, 0, [...report, ...hostEffects].join("\n"));
    // refusals are clear: they say which rule or what stopped them
    const curl = outcomes.get(list.find((x) => x.what === "curl behind bash -c")!.id)!;
    assert.match(curl.result, /permission denied.*bash\(curl \*\)/s);
    const shadow = outcomes.get(list[0].id)!;
    assert.match(shadow.result, /floor\.(deny\.)?read/);
  } finally {
    await rig.close();
  }
});

Deno.test("positive cases: allowed reads, writes and commands work inside the floor", async () => {
  const rig = await makeRig();
  try {
    const { run, outcomes } = await runCalls(rig, [
      { id: "p1", name: "read_file", input: { path: "notes.txt" } },
      { id: "p2", name: "write_file", input: { path: "sub/new.txt", content: "made\n" } },
      {
        id: "p3",
        name: "edit_file",
        input: { path: "sub/new.txt", edits: [{ type: "append_file", content: "more" }] },
      },
      {
        id: "p4",
        name: "bash",
        input: { command: "cat notes.txt && echo ok > b.txt && cat b.txt" },
      },
      { id: "p5", name: "evil", input: { action: "ok", arg: "" } },
      { id: "p6", name: "read_file", input: { path: join(rig.w.home, "trust.json") } },
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(outcomes.get("p1")?.error, false, outcomes.get("p1")?.result);
    assert.match(outcomes.get("p1")!.result, /hello from the workspace/);
    assert.equal(outcomes.get("p2")?.error, false, outcomes.get("p2")?.result);
    assert.equal(outcomes.get("p3")?.error, false, outcomes.get("p3")?.result);
    assert.equal(Deno.readTextFileSync(join(rig.w.ws, "sub/new.txt")), "made\nmore\n");
    assert.equal(outcomes.get("p6")?.error, false, outcomes.get("p6")?.result);
    if (BWRAP_OK) {
      assert.equal(outcomes.get("p4")?.error, false, outcomes.get("p4")?.result);
      assert.match(outcomes.get("p4")!.result, /hello from the workspace\nok/);
      assert.equal(outcomes.get("p5")?.error, false, outcomes.get("p5")?.result);
      assert.match(outcomes.get("p5")!.result, /fine in /);
    } else {
      // without an OS sandbox, children are refused (the policy is narrower than the process)
      assert.match(outcomes.get("p4")!.result, /no OS sandbox/);
      // (an executable tool's --schema is refused too, so it is not even offered)
      assert.match(outcomes.get("p5")!.result, /no OS sandbox|not found/);
    }
  } finally {
    await rig.close();
  }
});

Deno.test("a sandboxed bash writes its own private /tmp; the host's /tmp is untouched and next to the workspace still refused", async () => {
  const rig = await makeRig();
  const probe = `/tmp/hs-private-tmp-${crypto.randomUUID().slice(0, 8)}`;
  try {
    const { run, outcomes } = await runCalls(rig, [
      {
        id: "t1",
        name: "bash",
        input: { command: `mkdir -p ${probe} && echo x > ${probe}/f && cat ${probe}/f` },
      },
      {
        id: "t2",
        name: "bash",
        input: { command: "echo y > /tmp/hs-scratch.txt && cat /tmp/hs-scratch.txt" },
      },
      {
        id: "t3",
        name: "bash",
        input: { command: `echo pwned > ${join(rig.w.root, "next.txt")}` },
      },
    ]);
    assert.equal(run.code, 0, run.stderr);
    if (BWRAP_OK) {
      assert.equal(outcomes.get("t1")?.error, false, outcomes.get("t1")?.result);
      assert.match(outcomes.get("t1")!.result, /^x$/m);
      assert.equal(outcomes.get("t2")?.error, false, outcomes.get("t2")?.result);
      assert.match(outcomes.get("t2")!.result, /^y$/m);
    } else {
      assert.match(outcomes.get("t1")!.result, /no OS sandbox|redirection/);
    }
    // the workspace's own /tmp top directory is the host's: still refused by the floor
    assert.equal(outcomes.get("t3")?.error, true, outcomes.get("t3")?.result);
    assert.equal(statOr(probe), false, "nothing reached the host's /tmp");
    assert.equal(statOr("/tmp/hs-scratch.txt"), false, "nothing reached the host's /tmp");
    assert.equal(statOr(join(rig.w.root, "next.txt")), false);
  } finally {
    await rig.close();
  }
});

function statOr(p: string): boolean {
  try {
    Deno.statSync(p);
    return true;
  } catch {
    return false;
  }
}

Deno.test("without bubblewrap, children are refused once-noticed; --unsandboxed warns per call", async () => {
  const rig = await makeRig();
  try {
    const env = { HARNESS_BWRAP: "/nonexistent/bwrap", HARNESS_UNSANDBOXED: "" };
    const a = await runCalls(
      rig,
      [
        { id: "b1", name: "bash", input: { command: "echo hi" } },
        { id: "b2", name: "bash", input: { command: "echo again" } },
        { id: "b3", name: "read_file", input: { path: "notes.txt" } },
      ],
      [],
      env,
    );
    assert.equal(a.run.code, 0, a.run.stderr);
    assert.match(a.outcomes.get("b1")!.result, /no OS sandbox.*--unsandboxed/s);
    assert.equal(a.outcomes.get("b1")!.error, true);
    assert.equal(a.outcomes.get("b3")!.error, false, "file tools still work (worker)");
    assert.equal(a.run.stderr.match(/no OS sandbox for child processes/g)?.length, 1);
    const b = await runCalls(
      rig,
      [
        { id: "u1", name: "bash", input: { command: "echo unconfined" } },
        { id: "u2", name: "bash", input: { command: "echo twice" } },
      ],
      ["--unsandboxed"],
      env,
    );
    assert.equal(b.outcomes.get("u1")!.error, false, b.outcomes.get("u1")!.result);
    assert.equal(b.run.stderr.match(/without an OS sandbox \(--unsandboxed\)/g)?.length, 2);
  } finally {
    await rig.close();
  }
});
