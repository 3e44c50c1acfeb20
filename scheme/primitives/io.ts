/**
 * Ports (R7RS 6.13, without files): string and bytevector ports, `read`, `write` & co., and a
 * `current-output-port` whose sink the host supplies.
 *
 * @module
 */
import {
  alloc,
  char,
  checkStringLength,
  EOF,
  Eof,
  Parameter,
  paramValue,
  R,
  Reader,
  SchemeLimitError,
  toStr,
  typeError,
} from "../base/mod.ts";
import { chr, def, idx, mutable, type PrimTable, str } from "./util.ts";

/** A port. Textual input ports hold a string; output ports accumulate or forward to a sink. */
export class Port {
  /** Input position (code units). */
  pos = 0;
  /** Accumulated output. */
  chunks: string[] = [];
  /** Length of the accumulated text (string output ports). */
  length = 0;
  /** Accumulated binary output. */
  bytes: number[] = [];
  /** Open flag. */
  open = true;
  /** Creates a port. */
  constructor(
    public readonly input: boolean,
    public readonly binary: boolean,
    public data: string | Uint8Array = "",
    public sink: ((s: string) => void) | null = null,
  ) {}
  /** Writes text. */
  write(s: string): void {
    if (!this.open) typeError("write", "open output port", this);
    if (this.sink) this.sink(s);
    else {
      // the port's text counts against the string limit and memory, as one growing string
      if ((this.length += s.length) > R.limits.maxStringLength) {
        throw new SchemeLimitError(
          "memory",
          `string port too long (${this.length} > ${R.limits.maxStringLength})`,
        );
      }
      alloc(s.length >> 3);
      this.chunks.push(s);
      if (this.chunks.length > 64) this.chunks = [this.chunks.join("")];
    }
  }
}

function outPort(name: string, p: unknown, cur: Parameter): Port {
  const port = p === undefined ? paramValue(cur, cur.value) : p;
  if (!(port instanceof Port) || port.input) return typeError(name, "output port", port);
  return port;
}
function inPort(name: string, p: unknown, cur: Parameter): Port {
  const port = p === undefined ? paramValue(cur, cur.value) : p;
  if (!(port instanceof Port) || !port.input) return typeError(name, "input port", port);
  if (!port.open) typeError(name, "open input port", port);
  return port;
}

/** The standard port parameters of an interpreter. */
export interface StdPorts {
  /** `current-output-port`. */
  out: Parameter;
  /** `current-error-port`. */
  err: Parameter;
  /** `current-input-port`. */
  in: Parameter;
}

/** Installs port primitives; returns the port parameters. */
export function installIO(
  t: PrimTable,
  sinks: { out: (s: string) => void; err: (s: string) => void },
): StdPorts {
  const ports: StdPorts = {
    out: new Parameter(new Port(false, false, "", sinks.out), false),
    err: new Parameter(new Port(false, false, "", sinks.err), false),
    in: new Parameter(new Port(true, false, ""), false),
  };
  def(t, "%port-params", 0, 0, () => [ports.in, ports.out, ports.err]);
  def(t, "port?", 1, 1, (x) => x instanceof Port);
  def(t, "input-port?", 1, 1, (x) => x instanceof Port && x.input);
  def(t, "output-port?", 1, 1, (x) => x instanceof Port && !x.input);
  def(t, "textual-port?", 1, 1, (x) => x instanceof Port && !x.binary);
  def(t, "binary-port?", 1, 1, (x) => x instanceof Port && x.binary);
  def(t, "input-port-open?", 1, 1, (x) => x instanceof Port && x.input && x.open);
  def(t, "output-port-open?", 1, 1, (x) => x instanceof Port && !x.input && x.open);
  const close = (x: unknown) => {
    if (!(x instanceof Port)) typeError("close-port", "port", x);
    (x as Port).open = false;
  };
  def(t, "close-port", 1, 1, close);
  def(t, "close-input-port", 1, 1, close);
  def(t, "close-output-port", 1, 1, close);
  def(t, "open-input-string", 1, 1, (s) => new Port(true, false, str("open-input-string", s)));
  def(t, "open-output-string", 0, 0, () => new Port(false, false));
  def(t, "get-output-string", 1, 1, (p) => {
    if (!(p instanceof Port) || p.input || p.binary) {
      return typeError("get-output-string", "string output port", p);
    }
    const text = p.chunks.join("");
    p.chunks = [text];
    return text;
  });
  def(t, "open-input-bytevector", 1, 1, (b) => {
    if (!(b instanceof Uint8Array)) return typeError("open-input-bytevector", "bytevector", b);
    return new Port(true, true, b);
  });
  def(t, "open-output-bytevector", 0, 0, () => new Port(false, true));
  def(t, "get-output-bytevector", 1, 1, (p) => {
    if (!(p instanceof Port) || !p.binary || p.input) {
      return typeError("get-output-bytevector", "bytevector output port", p);
    }
    return new Uint8Array(p.bytes);
  });
  def(t, "eof-object", 0, 0, () => EOF);
  def(t, "eof-object?", 1, 1, (x) => x instanceof Eof);
  def(t, "flush-output-port", 0, 1, () => undefined);

  const wr = (mode: "write" | "display" | "shared" | "simple") => (x: unknown, p: unknown) => {
    const port = outPort(mode, p, ports.out);
    const s = toStr(x, mode, { max: R.limits.maxStringLength, charge: true });
    checkStringLength(s.length);
    port.write(s);
  };
  def(t, "write", 1, 2, wr("write"));
  def(t, "display", 1, 2, wr("display"));
  def(t, "write-shared", 1, 2, wr("shared"));
  def(t, "write-simple", 1, 2, wr("simple"));
  def(t, "newline", 0, 1, (p) => outPort("newline", p, ports.out).write("\n"));
  def(
    t,
    "write-char",
    1,
    2,
    (c, p) =>
      outPort("write-char", p, ports.out).write(String.fromCodePoint(chr("write-char", c).code)),
  );
  def(t, "write-string", 1, 4, (s, p, a, b) => {
    let v = str("write-string", s);
    if (a !== undefined) {
      v = [...v].slice(idx("write-string", a), b === undefined ? undefined : idx("write-string", b))
        .join("");
    }
    outPort("write-string", p, ports.out).write(v);
  });
  def(t, "write-u8", 1, 2, (b, p) => {
    const port = outPort("write-u8", p, ports.out);
    if (!port.binary) typeError("write-u8", "binary port", port);
    if (port.bytes.length >= R.limits.maxVectorLength) {
      throw new SchemeLimitError("memory", "bytevector port too long");
    }
    alloc(1);
    port.bytes.push(b as number);
  });
  def(t, "write-bytevector", 1, 4, (bv, p, a, b) => {
    const port = outPort("write-bytevector", p, ports.out);
    if (!(bv instanceof Uint8Array)) return typeError("write-bytevector", "bytevector", bv);
    const part = bv.subarray(
      a === undefined ? 0 : idx("write-bytevector", a),
      b === undefined ? bv.length : idx("write-bytevector", b),
    );
    if (port.bytes.length + part.length > R.limits.maxVectorLength) {
      throw new SchemeLimitError("memory", "bytevector port too long");
    }
    alloc(part.length);
    for (let i = 0; i < part.length; i++) port.bytes.push(part[i]);
  });

  const text = (p: Port) => p.data as string;
  def(t, "read-char", 0, 1, (p) => {
    const port = inPort("read-char", p, ports.in);
    const s = text(port);
    if (port.pos >= s.length) return EOF;
    const c = s.codePointAt(port.pos)!;
    port.pos += c > 0xffff ? 2 : 1;
    return char(c);
  });
  def(t, "peek-char", 0, 1, (p) => {
    const port = inPort("peek-char", p, ports.in);
    const s = text(port);
    if (port.pos >= s.length) return EOF;
    return char(s.codePointAt(port.pos)!);
  });
  def(t, "char-ready?", 0, 1, () => true);
  def(t, "read-line", 0, 1, (p) => {
    const port = inPort("read-line", p, ports.in);
    const s = text(port);
    if (port.pos >= s.length) return EOF;
    let e = s.indexOf("\n", port.pos);
    if (e < 0) e = s.length;
    const line = s.slice(port.pos, e);
    port.pos = e + 1;
    return line.endsWith("\r") ? line.slice(0, -1) : line;
  });
  def(t, "read-string", 1, 2, (k, p) => {
    const port = inPort("read-string", p, ports.in);
    const s = text(port);
    if (port.pos >= s.length) return EOF;
    const n = idx("read-string", k);
    const chars = [...s.slice(port.pos, port.pos + 2 * n)].slice(0, n).join("");
    port.pos += chars.length;
    return chars;
  });
  def(t, "read", 0, 1, (p) => {
    const port = inPort("read", p, ports.in);
    const s = text(port);
    const r = new Reader(s.slice(port.pos), "<string>", { symbols: R.symbols });
    const d = r.read();
    port.pos += r.pos;
    return d;
  });
  def(t, "read-u8", 0, 1, (p) => {
    const port = inPort("read-u8", p, ports.in);
    const b = port.data as Uint8Array;
    return port.pos >= b.length ? EOF : b[port.pos++];
  });
  def(t, "peek-u8", 0, 1, (p) => {
    const port = inPort("peek-u8", p, ports.in);
    const b = port.data as Uint8Array;
    return port.pos >= b.length ? EOF : b[port.pos];
  });
  def(t, "u8-ready?", 0, 1, () => true);
  def(t, "read-bytevector!", 1, 4, (bv, p, a, b) => {
    if (!(bv instanceof Uint8Array)) return typeError("read-bytevector!", "bytevector", bv);
    mutable("read-bytevector!", bv);
    const port = inPort("read-bytevector!", p, ports.in);
    const src = port.data as Uint8Array;
    if (port.pos >= src.length) return EOF;
    const start = a === undefined ? 0 : idx("read-bytevector!", a);
    const end = b === undefined ? bv.length : idx("read-bytevector!", b);
    const n = Math.min(end - start, src.length - port.pos);
    bv.set(src.subarray(port.pos, port.pos + n), start);
    port.pos += n;
    return n;
  });
  def(t, "read-bytevector", 1, 2, (k, p) => {
    const port = inPort("read-bytevector", p, ports.in);
    const b = port.data as Uint8Array;
    if (port.pos >= b.length) return EOF;
    const out = b.slice(port.pos, port.pos + idx("read-bytevector", k));
    port.pos += out.length;
    return out;
  });
  return ports;
}
