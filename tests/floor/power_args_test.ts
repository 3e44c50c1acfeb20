/**
 * The flags that take a child's powers away are in every bubblewrap argument list, and
 * the binaries hs runs itself are never looked up on PATH (issue 23, causes 2, 6, 7).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { systemBinary } from "../../core/exec/mod.ts";
import { bwrapArgs, bwrapBinary, type EffectPolicy } from "../../core/sandbox/mod.ts";
import { TIOCSTI, tiocstiFilter } from "../../core/sandbox/seccomp.ts";

const policy: EffectPolicy = {
  read: ["/tmp/hs-x/ws"],
  write: ["/tmp/hs-x/ws"],
  net: [],
  run: "all",
  env: [],
  deny: { read: [], write: [], net: [], run: [], env: [] },
};
const cwd = "/tmp/hs-x/ws";

Deno.test("every child: all capabilities dropped, its own session; a user namespace when asked", () => {
  const a = bwrapArgs(policy, { readOnly: [], writable: [], cwd });
  const i = a.indexOf("--cap-drop");
  assert.equal(a[i + 1], "ALL");
  assert.ok(a.includes("--new-session"));
  assert.ok(a.includes("--die-with-parent") && a.includes("--unshare-all"));
  assert.ok(!a.includes("--unshare-user"));
  const u = bwrapArgs(policy, { readOnly: [], writable: [], cwd, userns: true });
  assert.ok(u.includes("--unshare-user"));
  // the one kind that keeps the terminal keeps the seccomp filter instead of the session
  const t = bwrapArgs(policy, {
    readOnly: [],
    writable: [],
    cwd,
    sharesTerminal: true,
    seccompFd: 3,
  });
  assert.ok(!t.includes("--new-session"));
  assert.deepEqual(t.slice(t.indexOf("--seccomp"), t.indexOf("--seccomp") + 2), ["--seccomp", "3"]);
  assert.equal(t[t.indexOf("--cap-drop") + 1], "ALL");
});

Deno.test("helper binaries come from root-owned system directories, never PATH", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hs-path-" });
  try {
    await Deno.writeTextFile(join(dir, "bwrap"), "#!/bin/sh\n", { mode: 0o755 });
    const env = { PATH: `${dir}:/usr/bin:/bin` };
    const bin = bwrapBinary(env).bin;
    if (bin) {
      assert.ok(!bin.startsWith(dir), bin);
      assert.ok(/^\/usr\/(local\/)?s?bin\/|^\/s?bin\//.test(bin), bin);
    }
    for (const name of ["setsid", "bash", "kill"]) {
      const p = systemBinary(name);
      if (p) assert.ok(!p.startsWith(dir) && Deno.statSync(p).uid === 0, p);
    }
    assert.equal(systemBinary("./bwrap"), undefined);
    // the user's explicit override is kept, but only as an absolute path
    assert.equal(bwrapBinary({ HARNESS_BWRAP: "/nonexistent" }).bin, "/nonexistent");
    assert.match(bwrapBinary({ HARNESS_BWRAP: "bin/bwrap" }).reason ?? "", /absolute path/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the TIOCSTI filter checks the architecture first and names TIOCSTI", () => {
  for (const arch of ["x86_64", "aarch64"]) {
    const bpf = tiocstiFilter(arch)!;
    assert.equal(bpf.length % 8, 0);
    const v = new DataView(bpf.buffer);
    assert.equal(v.getUint16(0, true), 0x20); // ld [arch]
    assert.equal(v.getUint32(4, true), 4);
    const ks = Array.from({ length: bpf.length / 8 }, (_, i) => v.getUint32(i * 8 + 4, true));
    assert.ok(ks.includes(TIOCSTI));
    assert.equal(ks.at(-1), 0x7fff0000); // the last instruction allows
  }
  assert.equal(tiocstiFilter("riscv64"), undefined);
});
