#!/usr/bin/env python3
"""The scale-out test matrix (../shared/docs/scale-out.md §2.5) as raw MCP JSON-RPC over HTTP,
through a load balancer in front of replicas of examples/conformance. Standard library only.

Usage:
    matrix.py --lb URL --replicas PORT:PID,PORT:PID,... [--state FILE] ROW...

--replicas lists the replicas in the balancer's round-robin order (the order of its `server`
lines), each as its port and its PID: rows 5 and 9 SIGKILL one (scripts/scale-out restarts it
afterwards). Every response of the balancer names the replica that served it in `X-Upstream`
(nginx: "127.0.0.1:PORT", or "127.0.0.1:A, 127.0.0.1:B" when A refused the connection; the
last one served).

ROW (one function each; each prints PASS or FAIL lines with a reason):
    spread        a 2025-11-25 session's requests are served by at least two replicas
    row1          2026-07-28 requests spread over all replicas
    row3          an input_required round answered on one replica, retried on others
    row4          a subscriptions/listen stream gets, within 1 s and exactly once, a change made
                  by a call another replica served (and not a change it did not ask for)
    row5          2025-11-25: initialize on A, SIGKILL A, the next requests are served by the
                  others with no re-initialize
    row6          2025-11-25: a call's stream cut after its first events, resumed with GET and
                  Last-Event-ID on another replica: the remaining events and the response
    row7          2025-11-25: elicitation/create on A's stream, the answer POSTed to B, the
                  tool's result on A's stream
    row8          2026-07-28: a client that closes its call's connection through the balancer
                  cancels the handler on the replica running it (its log says so;
                  SCALE_OUT_REPLICA_LOGS lists the replicas' logs, colon-separated)
    row9          2026-07-28 load while a replica is SIGKILLed: every request answered or
                  refused clearly (HTTP 502/503, a JSON-RPC error), none hangs; later ones succeed
    row10-before  (Redis up) a 2025-11-25 session, saved in --state
    row10-outage  (Redis down) 2026-07-28 calls work; the saved session on another replica:
                  503 with a JSON-RPC error, or 404, within 5 s; initialize: 503 or works
    row10-after   (Redis back) new sessions work across replicas again (within 5 s)
Exit status: 0 when every check passed, 1 otherwise.
"""

from __future__ import annotations

import http.client
import json
import os
import queue
import signal
import socket
import sys
import threading
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor

MODERN = "2026-07-28"
LEGACY = "2025-11-25"
SIMPLE_TEXT = "This is a simple text response for testing."

FAILURES: list[str] = []


def check(ok: bool, row: str, what: str) -> bool:
    print(f"{'PASS' if ok else 'FAIL'} {row}: {what}", flush=True)
    if not ok:
        FAILURES.append(f"{row}: {what}")
    return ok


class Balancer:
    """Where to send requests, and which replica is which."""

    def __init__(self, url: str, replicas: str):
        parsed = urllib.parse.urlsplit(url)
        self.host = parsed.hostname or "127.0.0.1"
        self.port = parsed.port or 80
        self.path = parsed.path or "/mcp"
        self.replicas: list[tuple[int, int]] = []  # (port, pid), in round-robin order
        for item in replicas.split(","):
            port, pid = item.split(":")
            self.replicas.append((int(port), int(pid)))

    def pid_of(self, upstream: str) -> int:
        port = int(upstream.rsplit(":", 1)[1])
        for p, pid in self.replicas:
            if p == port:
                return pid
        raise KeyError(f"no replica on {upstream}")

    def next_after(self, upstream: str) -> str:
        """The replica round-robin picks after `upstream` (all replicas up)."""
        ports = [p for p, _ in self.replicas]
        i = ports.index(int(upstream.rsplit(":", 1)[1]))
        return f"127.0.0.1:{ports[(i + 1) % len(ports)]}"


LB: Balancer


# --- HTTP ---------------------------------------------------------------------------------------


class Reply:
    """A response: status, headers (lower-case names), the replica that served it, and its
    JSON-RPC messages (a JSON body, or every `data:` of an SSE body read to its end)."""

    def __init__(self, status: int, headers: dict[str, str], body: bytes, events: list | None = None):
        self.status = status
        self.headers = headers
        self.body = body
        self.events = events or []  # SSE: (id, message or None)
        self.messages: list = []
        if events is not None:
            self.messages = [m for _, m in events if m is not None]
        elif body.strip():
            try:
                parsed = json.loads(body)
                self.messages = parsed if isinstance(parsed, list) else [parsed]
            except ValueError:
                pass

    @property
    def upstream(self) -> str:
        return served_by(self.headers)

    def response(self, id_) -> dict | None:
        for m in self.messages:
            if isinstance(m, dict) and m.get("id") == id_ and "method" not in m:
                return m
        return None

    def __repr__(self) -> str:
        return f"HTTP {self.status} from {self.upstream or '?'}: {self.body[:300]!r}"


def served_by(headers: dict[str, str]) -> str:
    """The replica that answered: the last address of X-Upstream."""
    value = headers.get("x-upstream", "")
    return value.split(",")[-1].strip()


class Stream:
    """An open SSE response, read by a thread of its own into a queue (so waiting for an event
    with a timeout never leaves the HTTP response half-read)."""

    def __init__(self, conn: http.client.HTTPConnection, resp: http.client.HTTPResponse):
        self.conn = conn
        self.resp = resp
        self.status = resp.status
        self.headers = {k.lower(): v for k, v in resp.getheaders()}
        self.upstream = served_by(self.headers)
        self.ended = False
        self.queue: queue.Queue = queue.Queue()
        conn.sock.settimeout(None)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        event_id, data, seen = None, [], False
        try:
            while True:
                line = self.resp.readline()
                if not line:
                    break
                line = line.decode().rstrip("\r\n")
                if line == "":
                    if seen:
                        text = "\n".join(data)
                        self.queue.put((event_id, json.loads(text) if text.strip() else None))
                    event_id, data, seen = None, [], False
                    continue
                if line.startswith(":"):
                    continue
                field, _, value = line.partition(":")
                value = value[1:] if value.startswith(" ") else value
                seen = True
                if field == "id":
                    event_id = value
                elif field == "data":
                    data.append(value)
        except (http.client.HTTPException, OSError, ValueError):
            pass  # the stream broke (the replica died, the balancer or we cut it): its end
        self.queue.put(None)

    def next_event(self, timeout: float) -> tuple[str | None, dict | None] | None:
        """The next event (id, message; message None for a priming event), None at the end of
        the stream. Raises TimeoutError when nothing complete arrived within `timeout`."""
        if self.ended:
            return None
        try:
            event = self.queue.get(timeout=max(timeout, 0.001))
        except queue.Empty:
            raise TimeoutError(f"no SSE event within {timeout:.1f} s") from None
        if event is None:
            self.ended = True
        return event

    def close(self) -> None:
        try:
            self.conn.sock.shutdown(socket.SHUT_RDWR)
        except (OSError, AttributeError):
            pass
        self.conn.close()


def request(method: str, body: dict | None, headers: dict[str, str], timeout: float = 10.0,
            stream: bool = False):
    conn = http.client.HTTPConnection(LB.host, LB.port, timeout=timeout)
    all_headers = {"Accept": "application/json, text/event-stream"}
    if body is not None:
        all_headers["Content-Type"] = "application/json"
    all_headers.update(headers)
    payload = json.dumps(body).encode() if body is not None else None
    conn.request(method, LB.path, body=payload, headers=all_headers)
    resp = conn.getresponse()
    is_sse = resp.getheader("content-type", "").startswith("text/event-stream")
    if stream and is_sse:
        return Stream(conn, resp)
    hdrs = {k.lower(): v for k, v in resp.getheaders()}
    if is_sse:
        s = Stream(conn, resp)
        events = []
        deadline = time.monotonic() + timeout
        while True:
            event = s.next_event(max(0.01, deadline - time.monotonic()))
            if event is None:
                break
            events.append(event)
        conn.close()
        return Reply(resp.status, hdrs, b"", events)
    data = resp.read()
    conn.close()
    return Reply(resp.status, hdrs, data)


_next_id = [100]


def new_id() -> int:
    _next_id[0] += 1
    return _next_id[0]


# --- 2026-07-28 ---------------------------------------------------------------------------------


def modern_meta(capabilities: dict | None = None) -> dict:
    return {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": capabilities or {},
    }


def modern(method: str, params: dict, capabilities: dict | None = None, timeout: float = 10.0,
           stream: bool = False, id_=None):
    params = dict(params)
    params.setdefault("_meta", modern_meta(capabilities))
    id_ = new_id() if id_ is None else id_
    body = {"jsonrpc": "2.0", "id": id_, "method": method, "params": params}
    headers = {"MCP-Protocol-Version": MODERN, "Mcp-Method": method}
    name = params.get("name") if method in ("tools/call", "prompts/get") else None
    if method == "resources/read":
        name = params.get("uri")
    if name:
        headers["Mcp-Name"] = name
    return id_, request("POST", body, headers, timeout=timeout, stream=stream)


def modern_call(tool: str, arguments: dict | None = None, **kw):
    return modern("tools/call", {"name": tool, "arguments": arguments or {}}, **kw)


def text_of(result: dict) -> str:
    return "".join(c.get("text", "") for c in result.get("content", []) if c.get("type") == "text")


# --- 2025-11-25 ---------------------------------------------------------------------------------


class Session:
    """A 2025-11-25 session opened through the balancer."""

    def __init__(self, capabilities: dict | None = None, timeout: float = 10.0):
        body = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": LEGACY, "capabilities": capabilities or {},
            "clientInfo": {"name": "scale-out-matrix", "version": "1"}}}
        self.init = request("POST", body, {}, timeout=timeout)
        self.id = self.init.headers.get("mcp-session-id", "")
        self.upstreams = [self.init.upstream]
        self.initialized: Reply | None = None

    @property
    def ok(self) -> bool:
        return self.init.status == 200 and bool(self.id) and self.init.response(0) is not None

    def headers(self) -> dict[str, str]:
        return {"Mcp-Session-Id": self.id, "MCP-Protocol-Version": LEGACY}

    def notify_initialized(self) -> Reply:
        self.initialized = self.post({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return self.initialized

    def post(self, message: dict, timeout: float = 10.0, stream: bool = False):
        reply = request("POST", message, self.headers(), timeout=timeout, stream=stream)
        self.upstreams.append(reply.upstream)
        return reply

    def call(self, tool: str, arguments: dict | None = None, meta: dict | None = None, **kw):
        id_ = new_id()
        params: dict = {"name": tool, "arguments": arguments or {}}
        if meta:
            params["_meta"] = meta
        return id_, self.post({"jsonrpc": "2.0", "id": id_, "method": "tools/call", "params": params}, **kw)

    def ping(self) -> Reply:
        return self.post({"jsonrpc": "2.0", "id": new_id(), "method": "ping"})


def open_session(row: str, capabilities: dict | None = None) -> Session | None:
    """initialize + notifications/initialized, both checked."""
    try:
        session = Session(capabilities)
    except Exception as e:  # noqa: BLE001 - any transport failure is the row's failure
        check(False, row, f"initialize: {type(e).__name__}: {e}")
        return None
    if not check(session.ok, row, f"initialize answered with a session id ({session.init!r})"
                 if not session.ok else f"initialize served by {session.init.upstream}"):
        return None
    note = session.notify_initialized()
    check(note.status == 202, row, f"notifications/initialized accepted on {note.upstream} "
          f"(HTTP {note.status}{'' if note.status == 202 else ': ' + note.body[:200].decode(errors='replace')})")
    return session


def describe(reply: Reply, id_) -> str:
    response = reply.response(id_)
    if reply.status != 200 or response is None:
        return f"HTTP {reply.status} from {reply.upstream}: {reply.body[:200].decode(errors='replace')}"
    if "error" in response:
        return f"JSON-RPC error {response['error']} from {reply.upstream}"
    return f"{text_of(response['result'])!r} from {reply.upstream}"


def simple_ok(reply: Reply, id_, text: str = SIMPLE_TEXT) -> bool:
    response = reply.response(id_)
    return (reply.status == 200 and response is not None and "result" in response
            and text_of(response["result"]) == text)


# --- Rows ---------------------------------------------------------------------------------------


def spread() -> None:
    row = "spread"
    session = open_session(row)
    if session is None:
        return
    served = {session.init.upstream}
    if session.initialized is not None and session.initialized.status == 202:
        served.add(session.initialized.upstream)
    for _ in range(4):
        id_, reply = session.call("test_simple_text")
        if check(simple_ok(reply, id_), row, f"tools/call in the session: {describe(reply, id_)}"):
            served.add(reply.upstream)
    check(len(served) >= 2, row, f"the session's requests were served successfully by "
          f"{sorted(served)} (at least two replicas)")


def row1() -> None:
    row = "row1"
    served = []
    for _ in range(2 * len(LB.replicas)):
        id_, reply = modern_call("test_simple_text")
        check(simple_ok(reply, id_), row, f"2026-07-28 tools/call: {describe(reply, id_)}")
        served.append(reply.upstream)
    replicas = {f"127.0.0.1:{p}" for p, _ in LB.replicas}
    check(set(served) == replicas, row, f"requests served by {sorted(set(served))} "
          f"(all of {sorted(replicas)})")


def answer_for(question: dict) -> dict:
    """An accepting answer to an elicitation: every field of its schema filled in."""
    fields = question.get("params", {}).get("requestedSchema", {}).get("properties", {})
    content = {}
    for name, schema in fields.items():
        kind = schema.get("type")
        content[name] = {"boolean": True, "integer": 1, "number": 1}.get(kind, "Ada")
    return {"action": "accept", "content": content}


def row3() -> None:
    """input_required rounds: each round answered on another replica than the last one."""
    row = "row3"
    caps = {"elicitation": {"form": {}}}
    args: dict = {"name": "test_input_required_result_multi_round", "arguments": {}}
    previous = None
    rounds = 0
    for attempt in range(8):
        id_, reply = modern("tools/call", args, capabilities=caps)
        response = reply.response(id_)
        if reply.status != 200 or response is None or "error" in response:
            check(False, row, f"round {rounds + 1}: {describe(reply, id_)}")
            return
        if previous is not None and reply.upstream == previous:
            # Round-robin sent it where the last round ran: send it again (a round is stateless).
            continue
        result = response["result"]
        if rounds > 0:
            check(True, row, f"round {rounds + 1} on {reply.upstream}, after round {rounds} on {previous}")
        previous = reply.upstream
        if result.get("resultType") != "input_required":
            ok = result.get("resultType", "complete") == "complete" and text_of(result) == "Ada likes Ada"
            check(ok and rounds == 2, row, f"after {rounds} input_required rounds: {text_of(result)!r} "
                  f"(want 'Ada likes Ada' after 2)")
            break
        rounds += 1
        responses = {key: answer_for(q) for key, q in result.get("inputRequests", {}).items()}
        args = {"name": args["name"], "arguments": {}, "inputResponses": responses,
                "requestState": result.get("requestState")}
    else:
        check(False, row, "the retries never reached another replica")
        return
    # A requestState changed by one character is refused on any replica.
    id_, reply = modern("tools/call", {"name": "test_input_required_result_request_state", "arguments": {}},
                        capabilities=caps)
    result = (reply.response(id_) or {}).get("result", {})
    state = result.get("requestState", "")
    if not check(bool(state), row, f"test_input_required_result_request_state asked: {describe(reply, id_)}"):
        return
    bad = state[:-2] + ("A" if state[-2] != "A" else "B") + state[-1]
    responses = {k: answer_for(q) for k, q in result.get("inputRequests", {}).items()}
    id_, reply = modern("tools/call", {"name": "test_input_required_result_request_state", "arguments": {},
                                       "inputResponses": responses, "requestState": bad}, capabilities=caps)
    error = (reply.response(id_) or {}).get("error")
    check(error is not None, row, f"a tampered requestState is refused: {describe(reply, id_)}")


def row4() -> None:
    """A listen stream on A gets a change made on B, within 1 s, exactly once, filtered."""
    row = "row4"
    listen_id = 7
    try:
        _, stream = modern("subscriptions/listen", {"notifications": {"toolsListChanged": True}},
                           stream=True, id_=listen_id, timeout=10)
    except Exception as e:  # noqa: BLE001
        check(False, row, f"subscriptions/listen: {type(e).__name__}: {e}")
        return
    if not isinstance(stream, Stream):
        check(False, row, f"subscriptions/listen did not open a stream: {stream!r}")
        return
    try:
        home = stream.upstream
        ack = stream.next_event(5)
        ack_msg = ack[1] if ack else None
        check(bool(ack_msg) and ack_msg.get("method") == "notifications/subscriptions/acknowledged", row,
              f"the listen stream on {home} opens with the acknowledgement ({ack_msg})")
        # A change the stream did not ask for (prompts), then one it did (tools), both made by a
        # call another replica serves.
        for tool, wanted in (("test_trigger_prompt_change", False), ("test_trigger_tool_change", True)):
            for _ in range(len(LB.replicas)):
                id_, reply = modern_call(tool)
                ok = (reply.response(id_) or {}).get("result") is not None
                if not check(ok, row, f"{tool}: {describe(reply, id_)}"):
                    return
                if reply.upstream != home:
                    break
                # Served by the listener's own replica: its change arrives locally; skip it.
                drain(stream, 1.0)
            changed_at = time.monotonic()
            got = drain(stream, 1.0 if wanted else 0.5)
            methods = [m.get("method") for m in got]
            if not wanted:
                check("notifications/prompts/list_changed" not in methods, row,
                      f"a prompts change made on {reply.upstream} is not delivered to a tools-only "
                      f"listener (got {methods})")
                continue
            first = got[0] if got else None
            check(first is not None and first.get("method") == "notifications/tools/list_changed"
                  and first.get("params", {}).get("_meta", {}).get(
                      "io.modelcontextprotocol/subscriptionId") == listen_id,
                  row, f"the tools change made on {reply.upstream} reached the listener on {home} "
                  f"within 1 s, tagged with its subscription id (got {got or 'nothing'})")
            if not got:
                continue
            more = drain(stream, 1.0)
            check(len(got) + len(more) == 1, row,
                  f"delivered exactly once (got {len(got) + len(more)} within "
                  f"{time.monotonic() - changed_at:.1f} s)")
    finally:
        stream.close()


def drain(stream: Stream, seconds: float) -> list[dict]:
    """Every message the stream brings within `seconds`."""
    got = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not stream.ended:
        try:
            event = stream.next_event(deadline - time.monotonic())
        except TimeoutError:
            break
        if event is None:
            break
        if event[1] is not None:
            got.append(event[1])
    return got


def kill(upstream: str) -> int:
    pid = LB.pid_of(upstream)
    os.kill(pid, signal.SIGKILL)
    return pid


def row5() -> None:
    """initialize on A, SIGKILL A: the session goes on on the others without re-initialize."""
    row = "row5"
    session = open_session(row)
    if session is None:
        return
    home = session.init.upstream
    pid = kill(home)
    print(f"  row5: SIGKILLed replica {home} (pid {pid})", flush=True)
    time.sleep(0.2)
    for _ in range(4):
        id_, reply = session.call("test_simple_text")
        ok = simple_ok(reply, id_) and reply.upstream != home
        why = describe(reply, id_)
        if reply.status == 404:
            why += " (the session was lost: a client must re-initialize)"
        check(ok, row, f"after the kill, tools/call in the session: {why}")


def row6() -> None:
    """A call's stream cut after its first events, resumed on another replica."""
    row = "row6"
    session = open_session(row)
    if session is None:
        return
    try:
        id_, stream = session.call("test_tool_with_progress", meta={"progressToken": "p6"}, stream=True)
    except Exception as e:  # noqa: BLE001
        check(False, row, f"tools/call test_tool_with_progress: {type(e).__name__}: {e}")
        return
    if not isinstance(stream, Stream):
        check(False, row, f"tools/call test_tool_with_progress did not answer with a stream: "
              f"{describe(stream, id_)}")
        return
    seen_ids: list[str] = []
    seen: list[dict] = []
    home = stream.upstream
    try:
        # Up to the first progress notification, then the connection is dropped.
        while True:
            event = stream.next_event(5)
            if event is None:
                break
            if event[0]:
                seen_ids.append(event[0])
            if event[1] is not None:
                seen.append(event[1])
                break
    except TimeoutError as e:
        check(False, row, f"the call's first events on {home}: {e}")
        return
    finally:
        stream.close()
    if not check(bool(seen_ids) and bool(seen), row,
                 f"the call's stream on {home} sent events with ids {seen_ids} ({seen})"):
        return
    last = seen_ids[-1]
    time.sleep(0.2)  # the call ends meanwhile (150 ms)
    resumed = None
    for _ in range(2 * len(LB.replicas)):
        headers = session.headers() | {"Last-Event-ID": last, "Accept": "text/event-stream"}
        r = request("GET", None, headers, timeout=5, stream=True)
        upstream = r.upstream
        if upstream == home:
            (r.close() if isinstance(r, Stream) else None)
            continue
        resumed = r
        break
    if resumed is None:
        check(False, row, f"every GET landed on {home}")
        return
    if not isinstance(resumed, Stream):
        check(False, row, f"GET with Last-Event-ID {last} on {resumed.upstream}: {resumed!r}")
        return
    rest: list[dict] = []
    try:
        rest = drain_until_response(resumed, id_, 5)
    finally:
        resumed.close()
    progress = [m["params"]["progress"] for m in seen + rest if m.get("method") == "notifications/progress"]
    final = [m for m in rest if m.get("id") == id_]
    check(progress == [0, 50, 100] and len(final) == 1
          and text_of(final[0].get("result", {})) == "Progress test completed", row,
          f"resumed on {resumed.upstream} after {last}: progress {progress} (want [0, 50, 100] once each) "
          f"and the response {final or 'missing'}")


def drain_until_response(stream: Stream, id_, seconds: float) -> list[dict]:
    got = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            event = stream.next_event(deadline - time.monotonic())
        except TimeoutError:
            break
        if event is None:
            break
        if event[1] is not None:
            got.append(event[1])
            if event[1].get("id") == id_ and "method" not in event[1]:
                break
    return got


def row7() -> None:
    """elicitation/create on A's stream; the answer POSTed to B; the result on A's stream."""
    row = "row7"
    session = open_session(row, capabilities={"elicitation": {}})
    if session is None:
        return
    try:
        id_, stream = session.call("test_elicitation", {"message": "Who are you?"}, stream=True)
    except Exception as e:  # noqa: BLE001
        check(False, row, f"tools/call test_elicitation: {type(e).__name__}: {e}")
        return
    if not isinstance(stream, Stream):
        check(False, row, f"tools/call test_elicitation did not answer with a stream: {describe(stream, id_)}")
        return
    home = stream.upstream
    try:
        question = None
        try:
            while question is None:
                event = stream.next_event(5)
                if event is None:
                    break
                if event[1] is not None and event[1].get("method") == "elicitation/create":
                    question = event[1]
        except TimeoutError:
            pass
        if not check(question is not None, row, f"elicitation/create on {home}'s stream ({question})"):
            return
        # Round-robin: ping until the next request goes to another replica than the stream's.
        for _ in range(len(LB.replicas) + 1):
            p = session.ping()
            if LB.next_after(p.upstream) != home:
                break
        answer = {"jsonrpc": "2.0", "id": question["id"],
                  "result": {"action": "accept", "content": {"username": "ada", "email": "ada@example.com"}}}
        reply = session.post(answer)
        if not check(reply.status == 202 and reply.upstream != home, row,
                     f"the answer POSTed on {reply.upstream} (stream on {home}): HTTP {reply.status} "
                     f"{reply.body[:200].decode(errors='replace')}"):
            return
        rest = drain_until_response(stream, id_, 5)
        final = [m for m in rest if m.get("id") == id_]
        text = text_of(final[0].get("result", {})) if final else ""
        check(text.startswith("User response: action=accept") and "ada@example.com" in text, row,
              f"the tool's result on {home}'s stream: {final or 'nothing within 5 s'}")
    finally:
        stream.close()



CANCELLED_MARK = "the client closed its response; the request is cancelled"


def row8() -> None:
    row = "row8"
    logs = [p for p in os.environ.get("SCALE_OUT_REPLICA_LOGS", "").split(":") if p]
    if not check(bool(logs), row, "the replicas' logs are given (SCALE_OUT_REPLICA_LOGS)"):
        return

    def cancelled() -> int:
        total = 0
        for path in logs:
            try:
                with open(path, errors="replace") as f:
                    total += f.read().count(CANCELLED_MARK)
            except OSError:
                pass
        return total

    before = cancelled()
    params = {"name": "slow_compute", "arguments": {"seconds": 30}, "_meta": modern_meta()}
    body = {"jsonrpc": "2.0", "id": new_id(), "method": "tools/call", "params": params}
    conn = http.client.HTTPConnection(LB.host, LB.port, timeout=5)
    conn.request("POST", LB.path, body=json.dumps(body).encode(), headers={
        "Content-Type": "application/json", "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/call", "Mcp-Name": "slow_compute"})
    time.sleep(0.5)
    conn.close()  # the client goes away mid-call
    deadline = time.monotonic() + 5
    while cancelled() <= before and time.monotonic() < deadline:
        time.sleep(0.1)
    after = cancelled()
    check(after == before + 1, row, f"the handler on the replica running it was cancelled "
          f"(log lines: {before} before, {after} after)")


def row9() -> None:
    """2026-07-28 load while one replica is SIGKILLed."""
    row = "row9"
    # A tool that takes 100 ms, so the victim has calls in flight when it dies.
    tool, text = "test_tool_with_progress", "Progress test completed"
    total, kill_at, workers = 160, 60, 8
    outcomes: list[tuple[str, str]] = []
    lock = threading.Lock()
    started = [0]
    victim = f"127.0.0.1:{LB.replicas[-1][0]}"
    killed = threading.Event()

    def one(i: int) -> None:
        with lock:
            started[0] += 1
            if started[0] == kill_at and not killed.is_set():
                kill(victim)
                killed.set()
        try:
            id_, reply = modern_call(tool, timeout=10)
        except (socket.timeout, TimeoutError):
            outcome = ("hang", "no answer within 10 s")
        except (OSError, http.client.HTTPException) as e:
            outcome = ("broken", f"{type(e).__name__}: {e}")
        else:
            response = reply.response(id_)
            if simple_ok(reply, id_, text):
                outcome = ("ok", "")
            elif reply.status in (502, 503):
                outcome = ("refused", f"HTTP {reply.status}")
            elif response is not None and "error" in response:
                outcome = ("refused", f"JSON-RPC error {response['error'].get('code')}")
            else:
                outcome = ("bad", describe(reply, id_))
        with lock:
            outcomes.append(outcome)

    t0 = time.monotonic()
    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(one, range(total)))
    elapsed = time.monotonic() - t0
    counts: dict[str, int] = {}
    for kind, _ in outcomes:
        counts[kind] = counts.get(kind, 0) + 1
    odd = [f"{k}: {w}" for k, w in outcomes if k in ("hang", "broken", "bad")][:3]
    refusals = sorted({w for k, w in outcomes if k == "refused"})
    check(killed.is_set(), row, f"SIGKILLed {victim} after {kill_at} of {total} calls of {tool}")
    check(not odd and len(outcomes) == total, row,
          f"every call answered or refused clearly in {elapsed:.1f} s: {counts} {refusals} {odd}")
    later = []
    for _ in range(2 * len(LB.replicas)):
        id_, reply = modern_call(tool, timeout=10)
        later.append(simple_ok(reply, id_, text))
    check(all(later), row, f"calls after the kill succeed ({sum(later)}/{len(later)})")


def row10_before(state_file: str) -> None:
    row = "row10"
    session = open_session(row)
    state = {"session": session.id if session else "", "home": session.init.upstream if session else ""}
    with open(state_file, "w") as f:
        json.dump(state, f)


def row10_outage(state_file: str) -> None:
    row = "row10"
    state = json.load(open(state_file))
    ok = []
    for _ in range(len(LB.replicas)):
        id_, reply = modern_call("test_simple_text", timeout=5)
        ok.append(simple_ok(reply, id_))
    check(all(ok), row, f"Redis down: 2026-07-28 calls work ({sum(ok)}/{len(ok)})")
    if state["session"]:
        home = state["home"]
        session = Session.__new__(Session)
        session.id, session.upstreams = state["session"], []
        verdict = None
        for _ in range(len(LB.replicas)):
            t0 = time.monotonic()
            try:
                id_, reply = session.call("test_simple_text", timeout=5)
            except (socket.timeout, TimeoutError):
                verdict = (False, "no answer within 5 s (a hang)")
                break
            if reply.upstream == home:
                continue
            response = reply.response(id_)
            elapsed = time.monotonic() - t0
            if reply.status == 503 and response is not None and "error" in response:
                verdict = (True, f"HTTP 503 with {response['error']} in {elapsed:.2f} s")
            elif reply.status == 404:
                verdict = (True, f"HTTP 404 in {elapsed:.2f} s")
            else:
                verdict = (False, describe(reply, id_))
            verdict = (verdict[0], f"on {reply.upstream} (session made on {home}): {verdict[1]}")
            break
        if verdict is None:
            verdict = (False, f"every request landed on {home}")
        check(verdict[0], row, f"Redis down: a session's request on another replica: {verdict[1]}")
    else:
        check(False, row, "Redis down: no session from row10-before to try")
    try:
        s = Session(timeout=5)
        check(s.init.status in (200, 503), row,
              f"Redis down: initialize answers {s.init.status} on {s.init.upstream}")
    except (socket.timeout, TimeoutError):
        check(False, row, "Redis down: initialize: no answer within 5 s (a hang)")


def row10_after(_state_file: str) -> None:
    row = "row10"
    deadline = time.monotonic() + 5
    why = ""
    while True:
        try:
            s = Session(timeout=5)
            if not s.ok:
                why = f"initialize: {s.init!r}"
            else:
                note = s.notify_initialized()
                why = "" if note.status == 202 else f"notifications/initialized: {note!r}"
            served = {s.init.upstream}
            for _ in range(3):
                if why:
                    break
                id_, reply = s.call("test_simple_text", timeout=5)
                if not simple_ok(reply, id_):
                    why = f"tools/call: {describe(reply, id_)}"
                served.add(reply.upstream)
            if not why and len(served) >= 2:
                check(True, row, f"Redis back: a new session served by {sorted(served)}")
                return
            why = why or f"served by {sorted(served)} only"
        except (OSError, http.client.HTTPException) as e:
            why = f"{type(e).__name__}: {e}"
        if time.monotonic() > deadline:
            check(False, row, f"Redis back: no working session across replicas within 5 s: {why}")
            return
        time.sleep(0.5)


ROWS = {"spread": spread, "row1": row1, "row3": row3, "row4": row4, "row5": row5, "row6": row6,
        "row7": row7, "row8": row8, "row9": row9}
PHASES = {"row10-before": row10_before, "row10-outage": row10_outage, "row10-after": row10_after}


def main(argv: list[str]) -> int:
    global LB
    args = {"--lb": None, "--replicas": None, "--state": "/tmp/scale-out-matrix-state.json"}
    rows = []
    i = 0
    while i < len(argv):
        if argv[i] in args:
            args[argv[i]] = argv[i + 1]
            i += 2
        else:
            rows.append(argv[i])
            i += 1
    if not args["--lb"] or not args["--replicas"] or not rows:
        print(__doc__, file=sys.stderr)
        return 2
    LB = Balancer(args["--lb"], args["--replicas"])
    for row in rows:
        if row not in ROWS and row not in PHASES:
            print(f"unknown row {row}", file=sys.stderr)
            return 2
        started = time.monotonic()
        try:
            if row in ROWS:
                ROWS[row]()
            else:
                PHASES[row](args["--state"])
        except Exception as e:  # noqa: BLE001 - a crash is that row's failure, not a hang
            check(False, row, f"crashed: {type(e).__name__}: {e}")
        print(f"  {row} took {time.monotonic() - started:.1f} s", flush=True)
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
