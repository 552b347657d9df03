"""Loopback HTTP/1.1 server around :class:`App`, the JSONL request log and the CLI."""

from __future__ import annotations

import argparse
import hashlib
import ipaddress
import json
import logging
import signal
import socket
import sys
import threading
import time
from dataclasses import asdict, dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import IO, Any

from ..catalog.providers import base_url_env
from ..report.exit_status import ExitStatus
from .app import PROTOCOLS, App, Outcome
from .policy import make_policy
from .script import ScriptError
from .wire import encode_body

# Request headers worth keeping in the log: what the client was and how it retried.
# Credentials (authorization, x-api-key, x-goog-api-key) are never logged.
_LOGGED_HEADERS = ("user-agent", "content-type", "anthropic-version", "anthropic-beta",
                   "x-stainless-retry-count", "x-stainless-timeout", "x-goog-api-client", "x-server-timeout")
_BASE_PATH = {"openai": "/v1", "anthropic": "", "gemini": ""}
_MAX_BODY = 256 * 1024 * 1024


class RequestLog:
    """Thread-safe JSONL writer; one line per request, flushed immediately."""

    def __init__(self, path: str | None) -> None:
        # A lone surrogate a script sent is logged as its escape, not an error that drops the answer.
        self._file: IO[str] | None = (open(path, "a", encoding="utf-8", errors="backslashreplace")  # noqa: SIM115
                                      if path else None)
        self._lock = threading.Lock()

    @property
    def enabled(self) -> bool:
        return self._file is not None

    def write(self, record: dict[str, Any]) -> None:
        """Append one record (no-op without a log file)."""
        if self._file is None:
            return
        try:
            line = json.dumps(record, ensure_ascii=False, default=str)
        except (ValueError, RecursionError) as exc:  # a log line must never cost the answer
            line = json.dumps({k: record.get(k) for k in ("ts", "protocol", "method", "path", "status")}
                              | {"log_error": f"{type(exc).__name__}: {exc}"}, default=str)
        with self._lock:
            self._file.write(line + "\n")
            self._file.flush()

    def close(self) -> None:
        """Close the file."""
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None


@dataclass(frozen=True)
class Latency:
    """How long every model call takes to answer, as a served model would: ``ms`` ± up to ``jitter_ms``,
    the jitter drawn from the seed and the request's bytes (the same request waits the same time in every run)."""

    ms: float = 0.0
    jitter_ms: float = 0.0
    seed: int = 0

    def seconds(self, body: bytes) -> float:
        if self.ms <= 0 and self.jitter_ms <= 0:
            return 0.0
        jitter = 0.0
        if self.jitter_ms > 0:
            digest = hashlib.sha256(self.seed.to_bytes(8, "big", signed=True) + body).digest()
            jitter = (int.from_bytes(digest[:8], "big") / 2 ** 64 * 2 - 1) * self.jitter_ms
        return max(0.0, self.ms + jitter) / 1000


class EndpointServer(ThreadingHTTPServer):
    """A threading server holding the app, the log and a stop event that cuts delays short."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], app: App, request_log: RequestLog, verbose: bool = False,
                 latency: Latency | None = None) -> None:
        self.app = app
        self.request_log = request_log
        self.verbose = verbose
        self.latency = latency or Latency()
        self.stopping = threading.Event()
        self._count_lock = threading.Lock()
        self.in_flight = 0  # model calls being answered now
        self.peak_in_flight = 0
        if ":" in address[0]:
            self.address_family = socket.AF_INET6  # e.g. --host ::1
        super().__init__(address, _Handler)

    def enter(self) -> int:
        with self._count_lock:
            self.in_flight += 1
            self.peak_in_flight = max(self.peak_in_flight, self.in_flight)
            return self.in_flight

    def leave(self) -> None:
        with self._count_lock:
            self.in_flight -= 1

    def stop(self) -> None:
        """Stop serving from another thread, cut pending delays short, close the socket and log."""
        self.stopping.set()
        self.shutdown()
        self.server_close()
        self.request_log.close()

    @property
    def base_url(self) -> str:
        """The URL to give each SDK as its base URL."""
        raw_host, port = self.server_address[:2]
        host = raw_host.decode() if isinstance(raw_host, bytes) else str(raw_host)
        shown = f"[{host}]" if ":" in host else host  # IPv6 literals need brackets in URLs
        return f"http://{shown}:{port}{_BASE_PATH[self.app.protocol]}"


class _Handler(BaseHTTPRequestHandler):
    """Reads the body, asks the app, waits out scripted delays, writes JSON."""

    protocol_version = "HTTP/1.1"
    # Headers and body go out in separate writes; with Nagle's algorithm on, the body
    # waits for the client's delayed ACK (~40 ms per request on keep-alive connections).
    disable_nagle_algorithm = True
    server: EndpointServer
    server_version = "gameworld-endpoint/1"

    def do_GET(self) -> None:  # noqa: N802 - http.server naming
        """Handle GET."""
        self._serve()

    def do_POST(self) -> None:  # noqa: N802
        """Handle POST."""
        self._serve()

    def do_DELETE(self) -> None:  # noqa: N802
        """Handle DELETE (answered with the protocol's 404)."""
        self._serve()

    def _read_body(self) -> bytes:
        """The request body from Content-Length or chunked transfer encoding."""
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            chunks: list[bytes] = []
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass  # trailers
                    return b"".join(chunks)
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        if length > _MAX_BODY:
            raise ValueError(f"request body of {length} bytes is too large")
        return self.rfile.read(length) if length else b""

    def _serve(self) -> None:
        """One request, start to finish, including the JSONL log line."""
        started = time.monotonic()
        try:
            body = self._read_body()
        except ValueError as exc:  # oversized or garbled framing: refuse, drop the connection
            self.send_error(413 if "too large" in str(exc) else 400, str(exc))
            self.close_connection = True
            return
        model_call = self.command == "POST"
        in_flight = self.server.enter() if model_call else 0
        try:
            outcome = self.server.app.handle(self.command, self.path, body)
            delay = outcome.delay_s + (self.server.latency.seconds(body) if model_call else 0.0)
            if delay > 0:
                # Waiting on the stop event (not time.sleep) lets SIGTERM end a long delay.
                self.server.stopping.wait(delay)
            payload = encode_body(outcome.response.body)
            # Logged before answering: a client that has its reply always finds the line. Without a log the
            # record (which parses the body again) is not built.
            if self.server.request_log.enabled:
                self._log(body, outcome, started, in_flight)
        finally:
            if model_call:
                self.server.leave()
        self._answer(outcome, payload)

    def _log(self, body: bytes, outcome: Outcome, started: float, in_flight: int) -> None:
        self.server.request_log.write({
            "ts": time.time(),
            "protocol": self.server.app.protocol,
            "method": self.command,
            "path": self.path,
            "headers": {h: self.headers[h] for h in _LOGGED_HEADERS if self.headers.get(h) is not None},
            "key_sha256": key_digest(self.headers),
            "request": _as_json(body),
            "status": outcome.response.status,
            "response": outcome.response.body,
            "usage": asdict(outcome.usage) if outcome.usage is not None else None,
            "delay_s": outcome.delay_s,
            "in_flight": in_flight,  # model calls being answered when this one arrived, itself included
            "elapsed_s": round(time.monotonic() - started, 4),
        })

    def _answer(self, outcome: Outcome, payload: bytes) -> None:
        try:
            self.send_response(outcome.response.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            for name, value in outcome.response.headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(payload)
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            # The client gave up (typically a timeout test); a second line says so.
            self.close_connection = True
            self.server.request_log.write({"ts": time.time(), "event": "undelivered", "method": self.command,
                                           "path": self.path})

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - base-class signature
        """Access log to stderr only with --verbose (a silent server cannot fill a pipe)."""
        if self.server.verbose:
            sys.stderr.write(f"{self.address_string()} - {format % args}\n")


def key_digest(headers: Any) -> str | None:
    """SHA-256 of the API key the request carried (Bearer token, x-api-key or x-goog-api-key), never the key."""
    for name in ("authorization", "x-api-key", "x-goog-api-key"):
        value = headers.get(name)
        if value:
            key = value[7:] if value.lower().startswith("bearer ") else value
            return hashlib.sha256(key.strip().encode()).hexdigest()
    return None


def _as_json(body: bytes) -> Any:
    """The request body as JSON when it is JSON, else as text."""
    text = body.decode("utf-8", errors="replace")
    try:
        return json.loads(text) if text else None
    except (ValueError, RecursionError):
        return text


def _loopback(host: str) -> bool:
    """Whether ``host`` is a loopback name or address."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def pointing_hint(protocol: str, base_url: str) -> str:
    """The start-up line's second half: how a model spec is pointed at this server."""
    return (f"point a model spec at it: --gw-model-opt endpoint.base_url={base_url} "
            f"--gw-model-opt endpoint.api_key_required=false (or {base_url_env(protocol)}={base_url}, "
            "or the spec's own base_url_env, e.g. VLLM_BASE_URL)")


def build_parser() -> argparse.ArgumentParser:
    """The ``gameworld serve`` / ``python -m pytest_gameworld.endpoint`` options."""
    parser = argparse.ArgumentParser(
        prog="gameworld serve",
        description="Serve a fake model provider on loopback, speaking the OpenAI, Anthropic or Gemini "
                    "wire protocol, so the benchmark runs end to end without a GPU or an API key.")
    parser.add_argument("--protocol", choices=PROTOCOLS, default="openai",
                        help="wire protocol (openai serves chat completions and responses)")
    parser.add_argument("--policy", default="random",
                        help="random | noop | scripted:<file.json|file.yaml> (default: random); a request "
                             "without tools (Qwen, UI-TARS text formats) is answered in the format its prompt names")
    parser.add_argument("--port", type=int, default=0, help="TCP port; 0 picks a free one (default)")
    parser.add_argument("--host", default="127.0.0.1", help="loopback address to bind (default 127.0.0.1)")
    parser.add_argument("--seed", type=int, default=0, help="seed for the random policy and schema filling")
    parser.add_argument("--log", metavar="FILE", help="append one JSON line per request to FILE")
    parser.add_argument("--model", action="append", dest="models", metavar="ID",
                        help="model id listed by GET models (repeatable; any id is accepted anyway)")
    parser.add_argument("--latency-ms", type=float, default=0.0, metavar="MS",
                        help="answer every model call after MS milliseconds, as a served model would (default 0)")
    parser.add_argument("--jitter-ms", type=float, default=0.0, metavar="MS",
                        help="vary that latency by up to ± MS, drawn from --seed and the request (default 0)")
    parser.add_argument("--verbose", action="store_true", help="access log on stderr")
    return parser


def serve_main(argv: list[str] | None = None) -> int:
    """Run the server until SIGTERM/SIGINT; the first stdout line is ``serving <protocol> on <url>``."""
    args = build_parser().parse_args(argv)
    if not _loopback(args.host):
        print(f"refusing to bind non-loopback host {args.host!r}: this server is for local tests only",
              file=sys.stderr)
        return ExitStatus.REFUSED
    try:
        policy = make_policy(args.policy, seed=args.seed)
    except (ScriptError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return ExitStatus.REFUSED
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, stream=sys.stderr)
    request_log = RequestLog(args.log)
    try:
        server = EndpointServer((args.host, args.port), App(args.protocol, policy, args.models), request_log,
                                verbose=args.verbose, latency=Latency(args.latency_ms, args.jitter_ms, args.seed))
    except OSError as exc:
        print(f"error: cannot bind {args.host}:{args.port}: {exc}", file=sys.stderr)
        request_log.close()
        return ExitStatus.FAILED

    def stop(signum: int, _frame: object) -> None:
        # shutdown() blocks until serve_forever returns, so it must run off the main thread.
        server.stopping.set()
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    print(f"serving {args.protocol} on {server.base_url}", flush=True)
    print(pointing_hint(args.protocol, server.base_url), flush=True)
    try:
        server.serve_forever(poll_interval=0.05)
    finally:
        server.server_close()
        request_log.close()
    return ExitStatus.OK


def run_in_thread(protocol: str, policy: str = "random", seed: int = 0, log: str | None = None,
                  host: str = "127.0.0.1", port: int = 0, latency_ms: float = 0.0,
                  jitter_ms: float = 0.0) -> EndpointServer:
    """Start a server on a background thread (for in-process use); stop it with ``.stop()``."""
    if not _loopback(host):
        raise ValueError(f"refusing to bind non-loopback host {host!r}")
    server = EndpointServer((host, port), App(protocol, make_policy(policy, seed=seed)), RequestLog(log),
                            latency=Latency(latency_ms, jitter_ms, seed))
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    return server

