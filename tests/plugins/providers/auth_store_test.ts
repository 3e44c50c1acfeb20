import assert from "node:assert/strict";
import { HarnessError } from "../../../core/mod.ts";
import {
  listAuth,
  readAuth,
  removeKey,
  setKey,
  storedKey,
} from "../../../plugins/providers/mod.ts";

const KEY = "sk-ant-api03-VERYSECRETVALUE-0123456789abcdef";

Deno.test("setKey creates the directory and a 0600 file, atomically", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/nested/home/.auth.json`;
    await setKey(path, "anthropic", KEY);
    const st = await Deno.stat(path);
    assert.equal(st.mode! & 0o777, 0o600);
    assert.deepEqual(await readAuth(path), { anthropic: [{ type: "api_key", key: KEY }] });
    await setKey(path, "openai", "sk-openai-another-long-key-000");
    await setKey(path, "anthropic", "sk-ant-replaced-key-abcdefghij");
    const data = await readAuth(path);
    assert.deepEqual(Object.keys(data).sort(), ["anthropic", "openai"]);
    assert.equal(storedKey(data, "anthropic"), "sk-ant-replaced-key-abcdefghij");
    // No temp files are left behind.
    const names = [...Deno.readDirSync(`${dir}/nested/home`)].map((e) => e.name);
    assert.deepEqual(names, [".auth.json"]);
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("setKey replaces the file by rename (an open reader keeps the old content)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/.auth.json`;
    await setKey(path, "a", "first-key-aaaaaaaaaaaaaaaa");
    const before = (await Deno.stat(path)).ino;
    await setKey(path, "a", "second-key-bbbbbbbbbbbbbbbb");
    const after = (await Deno.stat(path)).ino;
    assert.notEqual(before, after, "expected a new inode (temp file + rename)");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("listAuth masks keys; removeKey", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/.auth.json`;
    await Deno.writeTextFile(
      path,
      JSON.stringify({
        anthropic: [{ type: "api_key", key: KEY }],
        chatgpt: [{
          type: "oauth",
          access_token: "at-0123456789abcdefghijkl",
          refresh_token: "rt",
          expires_at: 1,
        }],
        tiny: [{ type: "api_key", key: "short" }],
      }),
    );
    const rows = await listAuth(path);
    assert.deepEqual(rows, [
      { provider: "anthropic", index: 0, type: "api_key", masked: "sk-a…cdef" },
      { provider: "chatgpt", index: 0, type: "oauth", masked: "at-0…ijkl", expiresAt: 1 },
      { provider: "tiny", index: 0, type: "api_key", masked: "****" },
    ]);
    assert.ok(!JSON.stringify(rows).includes(KEY));
    assert.ok(!JSON.stringify(rows).includes("short"));
    await removeKey(path, "tiny", 0);
    assert.deepEqual(Object.keys(await readAuth(path)).sort(), ["anthropic", "chatgpt"]);
    await assert.rejects(removeKey(path, "anthropic", 3), /no credential anthropic\[3\]/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("missing file is empty; malformed file names the path, never the contents", async () => {
  const dir = await Deno.makeTempDir();
  try {
    assert.deepEqual(await readAuth(`${dir}/none.json`), {});
    const path = `${dir}/.auth.json`;
    await Deno.writeTextFile(path, `{"anthropic": [{"type":"api_key","key":"${KEY}"`);
    await assert.rejects(readAuth(path), (e: unknown) => {
      assert.ok(e instanceof HarnessError);
      assert.match(e.message, /malformed auth file \(not valid JSON\)/);
      assert.ok(e.message.includes(path));
      assert.ok(!e.message.includes(KEY));
      return true;
    });
    await Deno.writeTextFile(
      path,
      JSON.stringify({ anthropic: [{ type: "api_key", key: 42, note: KEY }] }),
    );
    await assert.rejects(readAuth(path), (e: unknown) => {
      assert.ok(e instanceof HarnessError);
      assert.match(e.message, /unexpected shape at anthropic\.0/);
      assert.ok(!e.message.includes(KEY));
      return true;
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
