/**
 * A seccomp filter that refuses terminal input injection, for the few children that
 * share the user's terminal (interactive hooks the user trusted): `ioctl(fd, TIOCSTI, …)`
 * (push a byte into the terminal's input queue — on kernels with
 * `dev.tty.legacy_tiocsti=1` any process whose controlling terminal it is may) and
 * `ioctl(fd, TIOCLINUX, …)` (the virtual console's paste) fail with EPERM; every other
 * system call is allowed. Bubblewrap loads it (`--seccomp FD`, a compiled classic BPF
 * program: `struct sock_filter` records, 8 bytes each, little-endian).
 *
 * The filter checks the architecture first: the native one and its 32-bit compat ABI
 * (i386 on x86_64, arm on aarch64) are filtered; x32 calls and any other architecture kill
 * the process (a filter that cannot tell the call apart must not let it through).
 * The ioctl request is compared on its low 32 bits (the kernel's `cmd` is an
 * `unsigned int`, the upper half is ignored).
 *
 * @module
 */

/** `ioctl` requests refused. */
export const TIOCSTI = 0x5412;
/** The virtual console's ioctl (selection paste). */
export const TIOCLINUX = 0x541c;

const LD_W_ABS = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JEQ_K = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JSET_K = 0x45; // BPF_JMP | BPF_JSET | BPF_K
const RET_K = 0x06; // BPF_RET | BPF_K

const RET_ALLOW = 0x7fff0000;
const RET_KILL_PROCESS = 0x80000000;
const RET_EPERM = 0x00050000 | 1; // SECCOMP_RET_ERRNO | EPERM

/** Offsets in `struct seccomp_data`. */
const NR = 0;
const ARCH = 4;
const ARG1_LOW = 16 + 8 + 0; // args[1], little-endian low word

const X32_SYSCALL_BIT = 0x40000000;

/** One ABI to filter: its `AUDIT_ARCH_*` value and its `ioctl` number. */
interface Abi {
  arch: number;
  ioctl: number;
  /** System call numbers with this bit set are another ABI (x32): killed. */
  foreignBit?: number;
}

/** The ABIs of each architecture Deno runs on. */
const ABIS: Record<string, Abi[]> = {
  x86_64: [
    { arch: 0xc000003e, ioctl: 16, foreignBit: X32_SYSCALL_BIT }, // AUDIT_ARCH_X86_64
    { arch: 0x40000003, ioctl: 54 }, // AUDIT_ARCH_I386
  ],
  aarch64: [
    { arch: 0xc00000b7, ioctl: 29 }, // AUDIT_ARCH_AARCH64
    { arch: 0x40000028, ioctl: 54 }, // AUDIT_ARCH_ARM
  ],
};

type Insn = { code: number; k: number; jt?: string; jf?: string } | { label: string };

/** Resolves labels into relative jumps and encodes the program. */
function assemble(prog: Insn[]): Uint8Array {
  const at = new Map<string, number>();
  const code: { code: number; k: number; jt?: string; jf?: string }[] = [];
  for (const i of prog) {
    if ("label" in i) at.set(i.label, code.length);
    else code.push(i);
  }
  const out = new Uint8Array(code.length * 8);
  const view = new DataView(out.buffer);
  const jump = (from: number, label: string | undefined) => {
    if (label === undefined) return 0;
    const to = at.get(label);
    if (to === undefined || to <= from || to - from - 1 > 255) {
      throw new Error(`seccomp: bad jump to ${label}`);
    }
    return to - from - 1;
  };
  code.forEach((c, n) => {
    view.setUint16(n * 8, c.code, true);
    view.setUint8(n * 8 + 2, jump(n, c.jt));
    view.setUint8(n * 8 + 3, jump(n, c.jf));
    view.setUint32(n * 8 + 4, c.k >>> 0, true);
  });
  return out;
}

/**
 * The compiled filter for an architecture (`Deno.build.arch` by default), or undefined
 * where none is defined (then no child shares the terminal).
 */
export function tiocstiFilter(arch: string = Deno.build.arch): Uint8Array | undefined {
  const abis = ABIS[arch];
  if (!abis) return undefined;
  const p: Insn[] = [{ code: LD_W_ABS, k: ARCH }];
  abis.forEach((abi, i) => p.push({ code: JEQ_K, k: abi.arch, jt: `abi${i}` }));
  p.push({ code: RET_K, k: RET_KILL_PROCESS });
  abis.forEach((abi, i) => {
    p.push({ label: `abi${i}` }, { code: LD_W_ABS, k: NR });
    if (abi.foreignBit) p.push({ code: JSET_K, k: abi.foreignBit, jt: "kill" });
    p.push({ code: JEQ_K, k: abi.ioctl, jt: "ioctl", jf: "allow" });
  });
  p.push(
    { label: "ioctl" },
    { code: LD_W_ABS, k: ARG1_LOW },
    { code: JEQ_K, k: TIOCSTI, jt: "deny" },
    { code: JEQ_K, k: TIOCLINUX, jt: "deny", jf: "allow" },
    { label: "deny" },
    { code: RET_K, k: RET_EPERM },
    { label: "kill" },
    { code: RET_K, k: RET_KILL_PROCESS },
    { label: "allow" },
    { code: RET_K, k: RET_ALLOW },
  );
  return assemble(p);
}

/** The filter as `\xHH` escapes, for a `printf` that feeds it to bubblewrap's fd. */
export function printfEscaped(bytes: Uint8Array): string {
  return [...bytes].map((b) => "\\x" + b.toString(16).padStart(2, "0")).join("");
}
