/**
 * Issue 28 item 4: "pass images to providers that accept them" — an ACP prompt's image
 * blocks reach the model in its protocol's image form, are kept with the session (its
 * `attachments/`), and are sent again when the session goes on; a message file naming an
 * attachment outside `attachments/` is not followed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { loopbackWorkspace } from "../support/workspace.ts";
import { editor, initialize } from "./_acp_kit.ts";

// a 1×1 PNG
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

for (const protocol of ["anthropic", "openai"]) {
  Deno.test(`hs acp: an image in a prompt reaches the ${protocol} model and stays with the session`, async () => {
    const t = await loopbackWorkspace([{ text: "a pixel" }, { text: "still a pixel" }], {
      protocol,
    });
    try {
      let dir = "";
      await editor(t, () => "allow-once", async (ctx) => {
        const init = await initialize(ctx);
        assert.equal(init.agentCapabilities?.promptCapabilities?.image, true);
        const created = await ctx.request(acp.methods.agent.session.new, {
          cwd: t.w.ws,
          mcpServers: [],
        });
        await ctx.request(acp.methods.agent.session.prompt, {
          sessionId: created.sessionId,
          prompt: [
            { type: "text", text: "what is this?" },
            { type: "image", mimeType: "image/png", data: PNG },
          ],
        });
        await ctx.request(acp.methods.agent.session.prompt, {
          sessionId: created.sessionId,
          prompt: [{ type: "text", text: "and now?" }],
        });
        dir = created.sessionId;
      });
      for (const req of t.server.requests) {
        const body = JSON.stringify(req.body);
        if (protocol === "anthropic") {
          assert.match(
            body,
            new RegExp(
              `"type":"image","source":\\{"type":"base64","media_type":"image/png","data":"${
                PNG.replace(/[+/=]/g, "\\$&")
              }"`,
            ),
          );
        } else {
          assert.ok(body.includes(`"url":"data:image/png;base64,${PNG}"`), body.slice(0, 400));
        }
        assert.match(body, /what is this\?/);
      }
      assert.equal(t.server.requests.length, 2);
      assert.ok(dir);
    } finally {
      await t.close();
    }
  });
}

Deno.test("hs acp: an image type a model cannot take is refused with the types there are", async () => {
  const t = await loopbackWorkspace([{ text: "never" }]);
  try {
    await editor(t, () => "allow-once", async (ctx) => {
      await initialize(ctx);
      const created = await ctx.request(acp.methods.agent.session.new, {
        cwd: t.w.ws,
        mcpServers: [],
      });
      await assert.rejects(
        ctx.request(acp.methods.agent.session.prompt, {
          sessionId: created.sessionId,
          prompt: [{ type: "image", mimeType: "image/tiff", data: PNG }],
        }),
        /image\/tiff.*png, jpeg, gif, webp/,
      );
    });
    assert.equal(t.server.requests.length, 0);
  } finally {
    await t.close();
  }
});

Deno.test("a message file naming an attachment outside attachments/ is not followed", async () => {
  const t = await loopbackWorkspace([{ text: "ok" }]);
  try {
    const secret = join(t.w.root, "secret.png");
    await Deno.writeTextFile(secret, "SECRET-BYTES");
    await editor(t, () => "allow-once", async (ctx) => {
      await initialize(ctx);
      const created = await ctx.request(acp.methods.agent.session.new, {
        cwd: t.w.ws,
        mcpServers: [],
      });
      const sessions = join(t.w.home, "sessions");
      // the session directory: find it by id under the sessions groups
      const dir = await findDir(sessions, created.sessionId);
      await Deno.mkdir(join(dir, "messages"), { recursive: true });
      // and a link in attachments/ to the outside file, under a name the field may use
      await Deno.mkdir(join(dir, "attachments"), { recursive: true });
      await Deno.symlink(secret, join(dir, "attachments", "0001-1.png"));
      await Deno.writeTextFile(
        join(dir, "messages", "0001-user.md"),
        `---\nrole: user\nseq: 0001\ntimestamp: 2026-12-02T00:00:00Z\nimages: ../../../secret.png ${secret} attachments/../../secret.png 0001-1.png\n---\nlook\n`,
      );
      await ctx.request(acp.methods.agent.session.prompt, {
        sessionId: created.sessionId,
        prompt: [{ type: "text", text: "go on" }],
      });
    });
    const body = JSON.stringify(t.server.requests[0]?.body);
    assert.doesNotMatch(body, /U0VDUkVU|SECRET/, "the outside file was read");
    assert.match(body, /look/);
  } finally {
    await t.close();
  }
});

async function findDir(root: string, id: string): Promise<string> {
  for await (const e of Deno.readDir(root)) {
    if (!e.isDirectory) continue;
    if (e.name === id) return join(root, id);
    for await (const f of Deno.readDir(join(root, e.name))) {
      if (f.isDirectory && f.name === id) return join(root, e.name, id);
    }
  }
  throw new Error(`no session ${id} under ${root}`);
}
