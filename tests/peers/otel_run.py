#!/usr/bin/env python3
"""Runs a Python MCP peer (tests/peers/client.py, benches/peers/python/server.py) with
OpenTelemetry on, for tests/otel_peers.rs.

The Python SDK (mcp 2.3.0) makes its spans through opentelemetry-api: a CLIENT span per request
it sends ("MCP send tools/call NAME", its context injected into params._meta) and, on a server, a
SERVER span per request (continuing the trace of params._meta). This wrapper installs the
OpenTelemetry SDK's tracer provider with the OTLP/HTTP (protobuf) exporter, configured by the
standard OTEL_* variables (OTEL_EXPORTER_OTLP_ENDPOINT), exporting each span as it ends, then runs
the script as __main__ with the remaining arguments.

Usage: otel_run.py SERVICE_NAME SCRIPT [ARG...]   (run with $MCP_PEER_PYTHON_OTEL)
"""

import atexit
import runpy
import sys

from opentelemetry import trace
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor

if len(sys.argv) < 3:
    sys.exit("usage: otel_run.py SERVICE_NAME SCRIPT [ARG...]")

provider = TracerProvider(resource=Resource.create({"service.name": sys.argv[1]}))
provider.add_span_processor(SimpleSpanProcessor(OTLPSpanExporter()))
trace.set_tracer_provider(provider)
atexit.register(provider.shutdown)

sys.argv = sys.argv[2:]
sys.path.insert(0, sys.argv[0].rpartition("/")[0] or ".")
runpy.run_path(sys.argv[0], run_name="__main__")
