import assert from "node:assert/strict";
import type { PluginContext, ToolDefinition } from "../../../core/mod.ts";
import { coreTools, coreToolsPlugin } from "../../../plugins/core_tools/mod.ts";

/** `tool --schema` and `--describe` of the reference tools, captured once. */
const reference: {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  describe: string;
}[] = JSON.parse(
  await Deno.readTextFile(new URL("./fixtures/reference_schemas.json", import.meta.url)),
);

Deno.test("core-tools plugin registers every tool", async () => {
  const registered: ToolDefinition[] = [];
  const ctx = { tools: { register: (t: ToolDefinition) => registered.push(t) } };
  await coreToolsPlugin.setup(ctx as unknown as PluginContext);
  assert.equal(coreToolsPlugin.id, "core-tools");
  assert.equal(coreToolsPlugin.apiVersion, 1);
  assert.deepEqual(
    registered.map((t) => t.name),
    ["bash", "read_file", "write_file", "edit_file", "skill", "agent"],
  );
  const readOnly = registered.filter((t) => t.readOnly).map((t) => t.name);
  assert.deepEqual(readOnly, ["read_file", "skill"]);
});

/** Optional inputs hs adds to a reference tool (prompts written for the reference still work). */
const EXTENSIONS: Record<string, string[]> = { agent: ["bot", "tools"] };

Deno.test("tool names, descriptions and input schemas equal the reference's --schema", () => {
  assert.equal(coreTools.length, reference.length);
  for (const ref of reference) {
    const tool = coreTools.find((t) => t.name === ref.name);
    assert.ok(tool, ref.name);
    assert.equal(tool.description, ref.description, ref.name);
    const props = { ...(tool.inputSchema.properties as Record<string, unknown>) };
    for (const extra of EXTENSIONS[ref.name] ?? []) {
      assert.ok(props[extra], `${ref.name} offers ${extra}`);
      delete props[extra];
    }
    assert.deepEqual({ ...tool.inputSchema, properties: props }, ref.input_schema, ref.name);
    assert.equal(tool.describe, ref.describe, ref.name);
  }
});
