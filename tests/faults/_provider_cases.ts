/**
 * Hostile provider servers, for one protocol: each case answers the first
 * request with a fault and the next with a valid answer. The run through
 * `deno task hs` must end with a clear message on stderr and exit code 1,
 * keep the session intact, and resume.
 */
import assert from "node:assert/strict";
import {
  answer,
  type Behaviour,
  cut,
  garbage,
  htmlPage,
  huge,
  keepalives,
  malformed,
  type Protocol,
  raw,
  status,
} from "./_hostile.ts";
import { assertResumes, assertSessionIntact, hostileWorkspace, sessionDirOf } from "./_support.ts";

interface ProviderCase {
  name: string;
  faults: Behaviour[];
  conf?: string;
  stderr: RegExp[];
  /**
   * Also resume the session afterwards (a few cases do; the others check the files on disk —
   * tests/e2e/provider_failures_test.ts resumes after every kind of stream failure).
   */
  resume?: boolean;
  /**
   * The case tests the first-token clock (`first_token_timeout=0.5` of FAST_CONF). Every
   * other case gets 30 s, so that a loaded machine never turns its fault into a time-out.
   */
  firstTokenClock?: boolean;
}

const CASES: ProviderCase[] = [
  {
    name: "a connection cut mid-stream",
    faults: [cut("this answer is cut in the middle of a sentence")],
    stderr: [/stream ended before completion \(connection lost/],
  },
  {
    name: "a malformed event",
    faults: [malformed()],
    stderr: [/malformed JSON in SSE event/],
  },
  {
    name: "ping keep-alives and nothing else, forever",
    resume: true,
    firstTokenClock: true,
    faults: [keepalives("ping")],
    stderr: [
      /no answer from the model within 0.5 s \(the server sent no content, only keep-alives/,
    ],
  },
  {
    name: "comment keep-alives and nothing else, forever",
    firstTokenClock: true,
    faults: [keepalives("comment")],
    stderr: [/no answer from the model within 0.5 s/],
  },
  {
    name: "some text, then keep-alives forever",
    faults: [keepalives("ping", { afterText: "I will answer in a moment" })],
    conf: "deadline=1.5\n",
    stderr: [/the answer was not complete within the deadline of 1\.5 s/],
  },
  {
    name: "a 3 MB streamed answer (over max_response_bytes)",
    resume: true,
    faults: [huge(3 * 1024 * 1024)],
    stderr: [/the response is larger than 1\.0 MB \(reading stopped\)/],
  },
  {
    name: "a 3 MB JSON answer (over max_response_bytes)",
    faults: [huge(3 * 1024 * 1024)],
    conf: "stream=never\n",
    stderr: [/the response is larger than 1\.0 MB/],
  },
  {
    name: "an HTML page with status 200",
    resume: true,
    faults: [htmlPage()],
    stderr: [
      /answered with an HTML page \(HTTP 200, content-type text\/html; charset=utf-8, "Sign in - Corporate Proxy"\), not an event stream/,
      / — check url= \(http:\/\/127\.0\.0\.1:\d+\/v1\/\S+\): a proxy, a login page or a wrong path answers HTML/,
    ],
  },
  {
    name: "an HTML page with status 200 to a plain JSON request",
    faults: [htmlPage()],
    conf: "stream=never\n",
    stderr: [/answered with an HTML page .* not a JSON response/],
  },
  {
    name: "JSON labelled text/plain where a stream was asked for",
    faults: [raw('{"ok": true}', "text/plain")],
    stderr: [/HTTP 200 with content-type text\/plain and no server-sent events \(first bytes: /],
  },
  {
    name: "garbage bytes labelled as an event stream",
    faults: [garbage()],
    stderr: [/content-type text\/event-stream; charset=utf-8 and no server-sent events/],
  },
  {
    name: "an empty event stream",
    faults: [raw("", "text/event-stream")],
    stderr: [/stream ended before completion/],
  },
  {
    name: "a storm of 429s",
    resume: true,
    faults: [1, 2, 3].map(() => status(429, { retryAfter: "0" })),
    stderr: [/hs: retrying \(HTTP 429/, /HTTP 429: .*\(gave up after 3 attempts\)/],
  },
  {
    name: "a storm of 503s",
    faults: [1, 2, 3].map(() => status(503)),
    stderr: [/hs: retrying \(HTTP 503/, /HTTP 503: .*\(gave up after 3 attempts\)/],
  },
];

async function runCase(protocol: Protocol, c: ProviderCase): Promise<void> {
  const t = await hostileWorkspace([...c.faults, answer({ text: "resumed fine" })], {
    protocol,
    conf: (c.firstTokenClock ? "" : "first_token_timeout=30\n") + (c.conf ?? ""),
  });
  try {
    const r = await t.hs(["first", "question"]);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stdout, "");
    for (const re of c.stderr) assert.match(r.stderr, re);
    assert.match(r.stderr, /hint: the session is kept and can be resumed: hs \S+ <message>/);
    assert.equal(t.server.requests.length, c.faults.length);
    const dir = sessionDirOf(t, r);
    const msgs = assertSessionIntact(dir);
    assert.deepEqual(msgs.map((m) => m.role), ["user"], "the partial answer is not saved");
    if (c.resume) await assertResumes(t, dir);
  } finally {
    await t.close();
  }
}

/** Registers the cases for `protocol` as the steps of one test. */
export function providerFaultTests(protocol: Protocol): void {
  Deno.test(`fault (${protocol}): hostile servers — a clear error, exit 1, the session intact`, async (t) => {
    for (const c of CASES) await t.step(c.name, () => runCase(protocol, c));
  });
}
