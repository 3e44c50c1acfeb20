/**
 * Serves a JSON script file with the scripted server:
 *
 *     deno run -A plugins/scripted/cli.ts script.json [--port N] [--keep-stdin]
 *
 * Prints the server's origin (one line) on stdout, then serves until SIGTERM /
 * SIGINT or until stdin is closed (unless `--keep-stdin` is given).
 *
 * @module
 */
import { startScriptedServer } from "./server.ts";
import { parseScript } from "./script_schema.ts";

async function main(args: string[]): Promise<number> {
  let file: string | undefined;
  let port = 0;
  let watchStdin = true;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--port") port = Number(args[++i]);
    else if (a === "--keep-stdin") watchStdin = false;
    else if (!file) file = a;
  }
  if (!file || !Number.isInteger(port) || port < 0) {
    console.error("usage: cli.ts <script.json> [--port N] [--keep-stdin]");
    return 2;
  }
  let turns;
  try {
    turns = parseScript(await Deno.readTextFile(file), file);
  } catch (err) {
    console.error(`scripted: ${(err as Error).message}`);
    return 1;
  }
  const server = await startScriptedServer(turns, { port });
  console.log(server.url);
  const { promise, resolve } = Promise.withResolvers<void>();
  const onSignal = () => resolve();
  Deno.addSignalListener("SIGTERM", onSignal);
  Deno.addSignalListener("SIGINT", onSignal);
  if (watchStdin) {
    (async () => {
      try {
        for await (const _ of Deno.stdin.readable) { /* ignore input */ }
      } catch { /* closed */ }
      resolve();
    })();
  }
  await promise;
  await server.close();
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
