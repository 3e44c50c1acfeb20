/**
 * The images of user messages, kept with the session: each one a file
 * `attachments/NNNN-K.<ext>` of the session directory, named by the message's
 * `images:` frontmatter (space-separated names). Reading follows the session's own-file
 * rule — a name that is not a plain `NNNN-K.<ext>` inside `attachments/`, a link, or a file
 * of another owner is never read.
 *
 * @module
 */
import { join } from "../early/mod.ts";
import { HarnessError, IMAGE_TYPES, type MessageImage, readOwnBytes } from "../base/mod.ts";

/** The largest image a message may carry (decoded), as the hosted model APIs take. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

const EXT: Record<MessageImage["mimeType"], string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
};
const TYPE_OF_EXT = Object.fromEntries(
  Object.entries(EXT).map(([t, e]) => [e, t as MessageImage["mimeType"]]),
);
const NAME = /^\d{4,}-\d{1,3}\.(png|jpg|gif|webp)$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Images a caller handed in, checked: a known type, base64, at most {@link MAX_IMAGE_BYTES}. */
export function checkedImages(images: readonly unknown[] | undefined): MessageImage[] | undefined {
  if (!images?.length) return undefined;
  return images.map((raw, i) => {
    const img = raw as Partial<MessageImage>;
    const where = `image ${i + 1}`;
    if (!(IMAGE_TYPES as readonly string[]).includes(String(img.mimeType))) {
      throw new HarnessError(
        `${where} is ${String(img.mimeType)}: a model takes ${
          IMAGE_TYPES.map((t) => t.slice(6)).join(", ")
        }`,
        "convert it to PNG or JPEG",
      );
    }
    const data = typeof img.data === "string" ? img.data.replace(/\s+/g, "") : "";
    if (data === "" || data.length % 4 !== 0 || !BASE64.test(data)) {
      throw new HarnessError(`${where} is not base64 data`);
    }
    const bytes = Math.floor(data.length * 3 / 4) -
      (data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0);
    if (bytes > MAX_IMAGE_BYTES) {
      throw new HarnessError(
        `${where} has ${bytes} bytes, over the ${MAX_IMAGE_BYTES}-byte limit`,
        "send a smaller image",
      );
    }
    return { mimeType: img.mimeType as MessageImage["mimeType"], data };
  });
}

/**
 * Writes a message's images into `attachments/` (new files, never over another) and returns
 * their names for the message's `images:` field.
 */
export function writeAttachments(dir: string, seqText: string, images: MessageImage[]): string[] {
  const adir = join(dir, "attachments");
  Deno.mkdirSync(adir, { recursive: true });
  return images.map((img, i) => {
    const name = `${seqText}-${i + 1}.${EXT[img.mimeType]}`;
    const bytes = Uint8Array.from(atob(img.data), (c) => c.charCodeAt(0));
    try {
      Deno.writeFileSync(join(adir, name), bytes, { createNew: true, mode: 0o644 });
    } catch (err) {
      if (!(err instanceof Deno.errors.AlreadyExists)) {
        throw new HarnessError(`cannot write ${join(adir, name)}: ${(err as Error).message}`);
      }
      Deno.removeSync(join(adir, name));
      Deno.writeFileSync(join(adir, name), bytes, { createNew: true, mode: 0o644 });
    }
    return name;
  });
}

/** The images a message's `images:` field names, read from `attachments/` (others skipped). */
export function readAttachments(dir: string, field: string | undefined): MessageImage[] {
  const out: MessageImage[] = [];
  for (const name of (field ?? "").split(/\s+/)) {
    if (!NAME.test(name)) continue;
    const bytes = readOwnBytes(join(dir, "attachments", name), { quiet: true });
    if (!bytes || bytes.length > MAX_IMAGE_BYTES) continue;
    out.push({ mimeType: TYPE_OF_EXT[name.split(".").pop()!], data: toBase64(bytes) });
  }
  return out;
}

function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(s);
}
