#!/usr/bin/env python3
"""The soak through the balancer (issue #20, "Measured"): for --seconds, --workers threads send
a mix of requests through the balancer in front of replicas of examples/conformance: 2026-07-28
calls, and 2025-11-25 sessions (calls, progress streams), while scripts/scale-out kills a replica
with SIGKILL and restarts it every few minutes. Every request must be answered, or refused with a
clear error: an HTTP error status with a JSON-RPC error body (404 → the worker initializes
again, as clients do; 503), or nginx's 502 for a request in flight on the killed replica. A
request that times out (10 s) or gets anything else is LOST. Every 10 s it reads Redis's memory
(INFO memory, over the unix socket). Standard library only; uses matrix.py's HTTP helpers.

Usage: soak.py --lb URL --redis SOCKET --seconds N [--workers N] [--report FILE]
Prints one JSON line: counts per outcome, the lost requests' reasons (first 20), Redis memory
samples; exit status 1 when a request was lost or Redis's memory grew (last sample above twice
the first plus 4 MiB).
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
import threading
import time
from collections import Counter

import matrix
from matrix import Session, modern_call, simple_ok

LOCK = threading.Lock()
OUTCOMES: Counter = Counter()
LOST: list[str] = []


def tally(outcome: str, why: str = "") -> None:
    with LOCK:
        OUTCOMES[outcome] += 1
        if outcome == "lost" and len(LOST) < 20:
            LOST.append(why)


def classify(reply, id_) -> str:
    """ok, or the kind of clear refusal, or lost."""
    if simple_ok(reply, id_) or (reply.status == 200 and reply.response(id_) and "result" in reply.response(id_)):
        return "ok"
    if reply.status == 502:
        return "refused-502"
    response = reply.response(id_) if reply.messages else None
    if reply.status in (404, 503) and (response is None or "error" in response):
        body_is_jsonrpc = bool(reply.messages) and "error" in reply.messages[0]
        return f"refused-{reply.status}" if body_is_jsonrpc else "lost"
    if reply.status == 200 and response is not None and "error" in response:
        # A clear JSON-RPC error (e.g. the replica running a streamed request stopped).
        return "refused-jsonrpc"
    return "lost"


def resume(session: Session, reply, id_):
    """GET with Last-Event-ID until the response (or a JSON-RPC error for it) arrives: at most
    3 times, each bounded (the replica left answers within its follower's bounds)."""
    last = next((event_id for event_id, _ in reversed(reply.events) if event_id), None)
    for _ in range(3):
        if last is None:
            return reply
        headers = dict(session.headers())
        headers["Last-Event-ID"] = last
        again = matrix.request("GET", None, headers, timeout=15)
        again.resumed = True
        if again.response(id_) is not None:
            return again
        last = next((event_id for event_id, _ in reversed(again.events) if event_id), last)
        reply = again
    return reply


def worker(deadline: float, index: int) -> None:
    session: Session | None = None
    turn = 0
    while time.monotonic() < deadline:
        turn += 1
        try:
            if turn % 2 == 0:
                id_, reply = modern_call("test_simple_text")
                outcome = classify(reply, id_)
                tally(outcome, f"modern: {reply!r}")
                continue
            if session is None or not session.ok:
                session = Session()
                if not session.ok:
                    outcome = "refused-503" if session.init.status in (502, 503) else "lost"
                    if session.init.status == 502:
                        outcome = "refused-502"
                    tally(outcome, f"initialize: {session.init!r}")
                    session = None
                    continue
                session.notify_initialized()
            tool, meta = ("test_tool_with_progress", {"progressToken": f"w{index}-{turn}"}) \
                if turn % 3 == 0 else ("test_simple_text", None)
            id_, reply = session.call(tool, meta=meta)
            if tool == "test_tool_with_progress":
                if reply.status == 200 and reply.response(id_) is None:
                    # The stream broke (its replica was killed): resume it, as clients do.
                    reply = resume(session, reply, id_)
                response = reply.response(id_)
                ok = reply.status == 200 and response is not None and "result" in response
                outcome = "ok" if ok else classify(reply, id_)
                if outcome == "ok" and getattr(reply, "resumed", False):
                    outcome = "ok-resumed"
            else:
                outcome = classify(reply, id_)
            if outcome == "refused-404":
                session = None  # the client initializes again
            tally(outcome, f"legacy {tool}: {reply!r}")
        except Exception as e:  # noqa: BLE001 - a hang or a broken answer is a lost request
            tally("lost", f"{type(e).__name__}: {e}")
            session = None


def redis_memory(sock: str) -> int | None:
    try:
        s = socket.socket(socket.AF_UNIX)
        s.settimeout(2)
        s.connect(sock)
        s.sendall(b"INFO memory\r\n")
        data = b""
        while b"used_memory:" not in data or not data.endswith(b"\r\n"):
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
        s.close()
        for line in data.decode(errors="replace").splitlines():
            if line.startswith("used_memory:"):
                return int(line.split(":")[1])
    except OSError:
        return None
    return None


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lb", required=True)
    parser.add_argument("--redis", required=True)
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--workers", type=int, default=6)
    parser.add_argument("--report")
    args = parser.parse_args()
    matrix.LB = matrix.Balancer(args.lb, "0:0")
    deadline = time.monotonic() + args.seconds
    threads = [threading.Thread(target=worker, args=(deadline, i), daemon=True)
               for i in range(args.workers)]
    for t in threads:
        t.start()
    memory = []
    while time.monotonic() < deadline:
        sample = redis_memory(args.redis)
        if sample is not None:
            memory.append(sample)
        time.sleep(min(10, max(0.1, deadline - time.monotonic())))
    for t in threads:
        t.join(timeout=30)
    hung = sum(t.is_alive() for t in threads)
    last = redis_memory(args.redis)
    if last is not None:
        memory.append(last)
    total = sum(OUTCOMES.values())
    grew = len(memory) >= 2 and memory[-1] > 2 * memory[0] + 4 * 1024 * 1024
    report = {"requests": total, "outcomes": dict(OUTCOMES), "lost": LOST, "hung_workers": hung,
              "redis_used_memory": {"first": memory[0] if memory else None,
                                    "max": max(memory) if memory else None,
                                    "last": memory[-1] if memory else None,
                                    "samples": len(memory)},
              "redis_memory_grew": grew}
    line = json.dumps(report)
    print(line, flush=True)
    if args.report:
        with open(args.report, "w") as f:
            f.write(line + "\n")
    return 1 if OUTCOMES["lost"] or hung or grew or total == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
