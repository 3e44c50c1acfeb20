/**
 * `hs session export` / `hs session import` through the launcher (issue 28 item 3): a session
 * made by a headless turn on one "machine" (HOME) is exported to one file, imported on
 * another, where `hs session show` prints the same conversation and `hs web` lists it and
 * opens it; importing it again is refused (nothing overwritten) unless `--as` names a new id;
 * a damaged archive is refused and leaves nothing behind.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  loopbackWorkspace,
  makeWorkspace,
  runHs,
  sessionsOf,
  writeFile,
} from "../support/workspace.ts";
import { startHsWeb } from "../support/web.ts";

Deno.test("a session exported on one machine imports on another: show, web, --as, refusals", async () => {
  const lw = await loopbackWorkspace([{ text: "the answer from the job" }]);
  const other = await makeWorkspace();
  try {
    const run = await runHs(["agent", "--json", "what is in the job?"], {
      cwd: lw.w.ws,
      env: lw.w.env,
    });
    assert.equal(run.code, 0, run.stderr);
    const { session } = JSON.parse(run.stdout) as { session: string };
    // an output outside the workspace: the launcher grants the folder -o names
    const out = join(other.root, "collected", `${session}.hs-session.json`);
    await Deno.mkdir(join(other.root, "collected"));
    const exp = await runHs(["session", "export", session, "-o", out], {
      cwd: lw.w.ws,
      env: lw.w.env,
    });
    assert.equal(exp.code, 0, exp.stderr);
    assert.match(exp.stderr, /^exported \S+ \(\d+ files\) to /m);
    const archive = JSON.parse(await Deno.readTextFile(out));
    assert.equal(archive.format, "hs-session-archive");
    assert.ok(
      (archive.files as { path: string }[]).some((f) => f.path === "session.conf"),
      "session.conf archived",
    );
    assert.ok(!(archive.files as { path: string }[]).some((f) => f.path === ".lock"));

    const imp = await runHs(["session", "import", out], { cwd: other.ws, env: other.env });
    assert.equal(imp.code, 0, imp.stderr);
    assert.equal(imp.stdout, `${session}\n`);
    const show = (w: { ws: string; env: Record<string, string> }, id: string) =>
      runHs(["session", "show", id], { cwd: w.ws, env: w.env });
    const here = await show(lw.w, session);
    const there = await show(other, session);
    assert.equal(there.code, 0, there.stderr);
    assert.match(there.stdout, /the answer from the job/);
    const body = (s: string) => s.split("\n").slice(1).join("\n").split("\nbudget")[0];
    assert.equal(body(there.stdout), body(here.stdout));
    const list = await runHs(["session", "list"], { cwd: other.ws, env: other.env });
    assert.match(list.stdout, new RegExp(`^${session} `, "m"));

    // hs web of the importing workspace lists and opens it
    const web = await startHsWeb([], { cwd: other.ws, env: other.env });
    try {
      const auth = { authorization: `Bearer ${web.token}` };
      const index = await (await fetch(`${web.origin}/`, { headers: auth })).text();
      assert.ok(index.includes(session), index);
      const page = await fetch(`${web.origin}/s/${session}`, { headers: auth });
      assert.equal(page.status, 200);
      assert.match(await page.text(), /the answer from the job/);
    } finally {
      await web.stop();
    }

    // again: refused, the session untouched; --as imports a copy under a new id
    const conf = join(sessionsOf(other), session, "session.conf");
    const before = await Deno.readTextFile(conf);
    const again = await runHs(["session", "import", out], { cwd: other.ws, env: other.env });
    assert.equal(again.code, 1);
    assert.match(again.stderr, /exists already \(nothing was overwritten\)/);
    assert.match(again.stderr, /^hint: .*--as /m);
    assert.equal(await Deno.readTextFile(conf), before);
    const copy = await runHs(["session", "import", out, "--as", "review-1"], {
      cwd: other.ws,
      env: other.env,
    });
    assert.equal(copy.code, 0, copy.stderr);
    assert.equal(copy.stdout, "review-1\n");
    const copied = await Deno.readTextFile(join(sessionsOf(other), "review-1", "session.conf"));
    assert.match(copied, /^id=review-1$/m);
    assert.match(copied, new RegExp(`^imported_from=${session}$`, "m"));
    assert.match((await show(other, "review-1")).stdout, /the answer from the job/);

    // several archives at once (what a fleet brings home); --as only with one
    const out2 = join(other.root, "collected", "review-1.hs-session.json");
    const exp2 = await runHs(["session", "export", "review-1", "-o", out2], {
      cwd: other.ws,
      env: other.env,
    });
    assert.equal(exp2.code, 0, exp2.stderr);
    const third = await makeWorkspace();
    try {
      const both = await runHs(["session", "import", out, out2], { cwd: third.ws, env: third.env });
      assert.equal(both.code, 0, both.stderr);
      assert.equal(both.stdout, `${session}\nreview-1\n`);
      const usage = await runHs(["session", "import", out, out2, "--as", "x"], {
        cwd: third.ws,
        env: third.env,
      });
      assert.equal(usage.code, 2);
      assert.match(usage.stderr, /--as names one session/);
    } finally {
      await third.cleanup();
    }

    // a damaged archive: refused, nothing written
    const bad = join(other.root, "bad.hs-session.json");
    const tampered = JSON.parse(await Deno.readTextFile(out)) as {
      files: { path: string; data: string }[];
    };
    const msg = tampered.files.find((f) => /assistant\.md$/.test(f.path))!;
    msg.data = btoa(atob(msg.data).replace("the answer", "THE answer"));
    await writeFile(bad, JSON.stringify(tampered));
    const refused = await runHs(["session", "import", bad, "--as", "damaged"], {
      cwd: other.ws,
      env: other.env,
    });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /does not match its SHA-256/);
    assert.deepEqual(
      [...Deno.readDirSync(sessionsOf(other))].map((e) => e.name).sort(),
      [session, "review-1"].sort(),
    );
  } finally {
    await other.cleanup();
    await lw.close();
  }
});

Deno.test("hs session export of a missing session names how to list them", async () => {
  const w = await makeWorkspace();
  try {
    const r = await runHs(["session", "export", "20200101-000000-9"], { cwd: w.ws, env: w.env });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /no session "20200101-000000-9"/);
    assert.match(r.stderr, /^hint: list them with: hs session list/m);
  } finally {
    await w.cleanup();
  }
});
