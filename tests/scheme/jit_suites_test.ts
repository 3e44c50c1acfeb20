// The Scheme suites once more with every procedure body compiled to JavaScript at its first call
// (scheme/jit/): conformance, control (continuations, dynamic-wind, exceptions), errors and
// backtraces, tail calls, deep recursion, the hostile programs and the sandbox must all hold
// whether a body runs as a tree of nodes or as generated code. The last test checks that the
// bodies really were compiled, and that the writer knew every shape it met.
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { jitStats, setDefaultJitAfter } from "../../scheme/jit/jit.ts";

setDefaultJitAfter(1);

await import("./expressions_test.ts");
await import("./data_test.ts");
await import("./numbers_test.ts");
await import("./control_test.ts");
await import("./continuation_jump_test.ts");
await import("./errors_test.ts");
await import("./embedding_test.ts");
await import("./extensions_test.ts");
await import("./libraries_test.ts");
await import("./suites_test.ts");
await import("./tailcalls_test.ts");
await import("./fused_calls_test.ts");
await import("./fuzz_test.ts");
await import("./stack_depth_test.ts");
await import("./sandbox_test.ts");
await import("./hostile_test.ts");

Deno.test("jit suites: the bodies above ran compiled, and every recorded shape was written", () => {
  assert(jitStats.compiled > 500, `only ${jitStats.compiled} bodies compiled`);
  assertEquals(jitStats.failed, 0);
});
