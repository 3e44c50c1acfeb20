/**
 * A static file server for a built site on a loopback port (for the browser
 * test and local previews): `/` is `index.html`, a folder its `index.html`,
 * anything else the file itself or `404.html`.
 *
 * @module
 */
import { extname, join, normalize } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
};

/** A running server. */
export interface StaticServer {
  /** Origin and base, e.g. `http://127.0.0.1:41234/`. */
  url: string;
  close(): Promise<void>;
}

/** Serves `root` under the URL path `base` on 127.0.0.1 (any free port). */
export function serveStatic(root: string, base = "/"): StaticServer {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    let path = decodeURIComponent(new URL(req.url).pathname);
    if (!path.startsWith(base)) return new Response("not found", { status: 404 });
    path = normalize(`/${path.slice(base.length)}`);
    if (path.endsWith("/")) path += "index.html";
    for (const candidate of [path, `${path}.html`]) {
      try {
        const file = join(root, candidate);
        if (!(await Deno.stat(file)).isFile) continue;
        const type = TYPES[extname(file)] ?? "application/octet-stream";
        return new Response(await Deno.readFile(file), { headers: { "content-type": type } });
      } catch {
        // try the next candidate
      }
    }
    const notFound = await Deno.readFile(join(root, "404.html")).catch(() => undefined);
    return new Response(notFound ?? "not found", {
      status: 404,
      headers: { "content-type": TYPES[".html"] },
    });
  });
  const { port } = server.addr as Deno.NetAddr;
  return { url: `http://127.0.0.1:${port}${base}`, close: () => server.shutdown() };
}
