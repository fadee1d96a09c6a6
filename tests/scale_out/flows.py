#!/usr/bin/env python3
"""The seed's flows through the load balancer, from the peer SDKs' clients (scripts/scale-out,
leg `flows`). Standard library only: it runs each client as a subprocess and checks its output.

Usage:
    flows.py --url URL --example NAME --client-py PATH --kit DIR --peers DIR

NAME is the example the replicas serve: order_book, reserve_book, backorder or recommend_book.
The clients (paths from target/peers/env.sh, in the environment):
    python-2.x legacy, python-2.x 2026-07-28   tests/peers/client.py on $MCP_PEER_PYTHON
    python-1.x legacy                          DIR/py1_client.py on $MCP_PEER_PYTHON1
    ts-sdk-1.x legacy                          tests/peers/ts_client.mjs --sdk v1 on $MCP_PEER_NODE
    ts-client-2.x legacy, ts-client-2.x 2026-07-28   tests/peers/ts_client.mjs --sdk v2
Each runs the example's steps in one connection (one session on 2025-11-25), answering its
questions; every result must be the example's text and every expected question asked once.
Prints one PASS or FAIL line per client; exit status 1 when one failed.
"""

from __future__ import annotations

import glob
import json
import os
import subprocess
import sys

DUNE = {"title": "Dune"}
NEUROMANCER = {"title": "Neuromancer"}
ACCEPT = {"action": "accept", "content": {"confirm": True}}

# example -> (steps [(tool, arguments, expected text)], elicitation answers, sampling answers,
# how many questions the client is asked)
FLOWS = {
    "order_book": ([("order_book", DUNE, "Ordered 'Dune'; it arrives tomorrow."),
                    ("order_book", NEUROMANCER, "'Neuromancer' is on backorder; it would arrive in 2-3 weeks.")],
                   [], [], 0),
    "reserve_book": ([("reserve_book", DUNE, "Reserved 'Dune' (6 copies left)."),
                      ("reserve_book", NEUROMANCER, "'Neuromancer' is out of stock.")],
                     [], [], 0),
    "backorder": ([("order_book", DUNE, "Ordered 'Dune'."),
                   ("order_book", NEUROMANCER, "Backordered 'Neuromancer'; it ships in 2-3 weeks.")],
                  [ACCEPT], [], 1),
    "recommend_book": ([("recommend_book", {"genre": "science fiction"}, "Today's science fiction pick: Dune")],
                       [], ["Dune"], 1),
}

TIMEOUT = 10  # per request, inside each client
RUN_TIMEOUT = 60  # per client process


def version_of_node_package(peers: str, name: str) -> str:
    try:
        with open(os.path.join(peers, "node_modules", "@modelcontextprotocol", name, "package.json")) as f:
            return json.load(f)["version"]
    except (OSError, ValueError, KeyError):
        return "?"


def version_of_python_mcp(python: str) -> str:
    venv = os.path.dirname(os.path.dirname(python))
    found = glob.glob(os.path.join(venv, "lib", "python*", "site-packages", "mcp-*.dist-info"))
    return os.path.basename(found[0])[len("mcp-"):-len(".dist-info")] if found else "?"


def clients(url: str, client_py: str, kit: str, peers: str) -> list[tuple[str, list[str]]]:
    """(label, command) for every client."""
    py, py1, node = (os.environ.get(k, "") for k in ("MCP_PEER_PYTHON", "MCP_PEER_PYTHON1", "MCP_PEER_NODE"))
    v_py, v_py1 = version_of_python_mcp(py), version_of_python_mcp(py1)
    v_ts1, v_ts2 = version_of_node_package(peers, "sdk"), version_of_node_package(peers, "client")
    ts = [node, os.path.join(os.path.dirname(client_py), "ts_client.mjs"), "--peers", peers, "--url", url, "--timeout", str(TIMEOUT)]
    return [
        (f"python-{v_py} legacy", [py, client_py, "--mode", "legacy", "--http", url, "--timeout", str(TIMEOUT)]),
        (f"python-{v_py} 2026-07-28", [py, client_py, "--mode", "2026-07-28", "--http", url,
                                       "--timeout", str(TIMEOUT)]),
        (f"python-{v_py1} legacy", [py1, os.path.join(kit, "py1_client.py"), "--url", url,
                                    "--timeout", str(TIMEOUT)]),
        (f"ts-sdk-{v_ts1} legacy", ts + ["--sdk", "v1", "--mode", "legacy"]),
        (f"ts-client-{v_ts2} legacy", ts + ["--sdk", "v2", "--mode", "legacy"]),
        (f"ts-client-{v_ts2} 2026-07-28", ts + ["--sdk", "v2", "--mode", "2026-07-28"]),
    ]


def text_of(result: dict) -> str:
    return "".join(c.get("text", "") for c in result.get("content", []) if c.get("type") == "text")


def run_one(label: str, command: list[str], example: str) -> tuple[bool, str]:
    steps, elicit, sample, questions = FLOWS[example]
    args = []
    for answer in elicit:
        args += ["--elicit", json.dumps(answer)]
    for text in sample:
        args += ["--sample", text]
    for tool, arguments, _ in steps:
        args += ["call", tool, json.dumps(arguments)]
    try:
        done = subprocess.run(command + args, capture_output=True, text=True, timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        return False, f"no end within {RUN_TIMEOUT} s (a hang)"
    lines = []
    for line in done.stdout.splitlines():
        try:
            lines.append(json.loads(line))
        except ValueError:
            pass
    if lines and "connect_error" in lines[0]:
        return False, f"connect failed: {json.dumps(lines[0]['connect_error'])[:300]}"
    asked = next((line["asked"] for line in lines if "asked" in line), None)
    results = [line for line in lines if "asked" not in line]
    if len(results) != len(steps) or asked is None:
        tail = done.stderr.strip().splitlines()[-3:]
        return False, f"exit {done.returncode}, {len(results)} of {len(steps)} results: {done.stdout[:300]!r} {tail}"
    problems = []
    for (tool, _, want), got in zip(steps, results):
        if "error" in got or "exception" in got or got.get("isError"):
            problems.append(f"{tool}: {json.dumps(got)[:250]}")
        elif text_of(got) != want:
            problems.append(f"{tool}: {text_of(got)!r}, want {want!r}")
    if len(asked) != questions:
        problems.append(f"asked {len(asked)} questions, want {questions}")
    if problems:
        return False, "; ".join(problems)
    return True, " | ".join(text_of(r) for r in results)


def main(argv: list[str]) -> int:
    opts = {}
    for i in range(0, len(argv) - 1, 2):
        opts[argv[i]] = argv[i + 1]
    need = ("--url", "--example", "--client-py", "--kit", "--peers")
    if any(k not in opts for k in need) or opts["--example"] not in FLOWS:
        print(__doc__, file=sys.stderr)
        return 2
    failed = 0
    for label, command in clients(opts["--url"], opts["--client-py"], opts["--kit"], opts["--peers"]):
        ok, why = run_one(label, command, opts["--example"])
        failed += not ok
        print(f"{'PASS' if ok else 'FAIL'} {opts['--example']} {label}: {why}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
