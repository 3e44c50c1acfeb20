/**
 * The API reference: `deno doc --html` over the public modules.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { REPO } from "./paths.ts";

/** The modules the API reference documents. */
export const API_MODULES = ["mod.ts", "scheme/mod.ts"];

/** Writes the API reference into `out` (replaced); throws with deno doc's output on failure. */
export async function buildApiDocs(out: string): Promise<void> {
  await Deno.remove(out, { recursive: true }).catch(() => {});
  await Deno.mkdir(dirname(out), { recursive: true });
  const r = await new Deno.Command(Deno.execPath(), {
    args: [
      "doc",
      "--html",
      "--name=Harness",
      `--output=${out}`,
      "--config",
      join(REPO, "deno.json"),
      ...API_MODULES,
    ],
    cwd: REPO,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!r.success) {
    const dec = new TextDecoder();
    throw new Error(`deno doc failed:\n${dec.decode(r.stdout)}${dec.decode(r.stderr)}`);
  }
}
