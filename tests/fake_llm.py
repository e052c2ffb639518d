"""A fake OpenAI-compatible chat-completions server on a local port, for tests.

It speaks the real wire protocol (``POST /v1/chat/completions`` with JSON in, a ``chat.completion``
object out) over real HTTP in a thread. Modes: ``ok`` answers with ``reply(request_json)``,
``slow`` sleeps before answering, ``garbage`` answers with a body that is not JSON, ``empty``
answers JSON without choices, ``error`` answers HTTP 500. ``down_url()`` is a port nobody listens on.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Reply = Callable[[dict[str, Any]], str]


class FakeLLM:
    def __init__(self, reply: Reply, mode: str = "ok", delay: float = 0.0) -> None:
        self.reply = reply
        self.mode = mode
        self.delay = delay
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def __enter__(self) -> FakeLLM:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:  # keep test output clean
                pass

            def do_POST(self) -> None:
                if self.path != "/v1/chat/completions":
                    self._send(404, b'{"error": {"message": "not found"}}')
                    return
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                fake.requests.append(body)
                fake.headers.append(dict(self.headers))
                if fake.mode == "slow":
                    time.sleep(fake.delay)
                if fake.mode == "garbage":
                    self._send(200, b"<html>this is not json")
                elif fake.mode == "empty":
                    self._send(200, json.dumps({"id": "x", "object": "chat.completion", "choices": []}).encode())
                elif fake.mode == "error":
                    self._send(500, b'{"error": {"message": "model crashed"}}')
                else:
                    self._send(200, json.dumps(_completion(body, fake.reply(body))).encode())

            def _send(self, status: int, payload: bytes) -> None:
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (time-out tests)
                    pass

        return Handler


def _completion(request: dict[str, Any], text: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": request.get("model", "fake"),
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }


def down_url() -> str:
    """The URL of a local port that was free a moment ago: connections to it are refused."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def query_of(request: dict[str, Any]) -> str:
    """The QUERY line of the rewrite prompt mnemo sends."""
    text = request["messages"][-1]["content"]
    return next(line[len("QUERY: ") :] for line in text.splitlines() if line.startswith("QUERY: "))
