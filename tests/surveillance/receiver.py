"""A casino's webhook receiver for the tests: a real HTTP server on 127.0.0.1 (a random
port, a thread of its own) that checks each delivery's signature with the snippet
docs/webhooks.md gives receivers, and answers as the test tells it to."""

from __future__ import annotations

import json
import re
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

DOC = Path(__file__).resolve().parents[2] / "docs" / "webhooks.md"
CLOSE = 0  # an answer: close the connection without answering


def documented_verify() -> Callable[..., bool]:
    """``verify_signature`` as docs/webhooks.md gives it to receivers, run as written."""
    [snippet] = [
        code for code in re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S) if "def verify_signature" in code
    ]
    namespace: dict[str, Any] = {}
    exec(snippet, namespace)  # the documentation's own code, as a receiver copies it
    return namespace["verify_signature"]


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    verified: bool
    answered: int  # the status sent back, or CLOSE

    @property
    def json(self) -> dict[str, Any]:
        return json.loads(self.body)


@dataclass
class Receiver:
    """``answer(received_so_far_for_this_delivery, request)`` says what to answer: a
    status, or :data:`CLOSE`. ``secrets`` maps a path to the secret it verifies with."""

    secrets: dict[str, str]
    now: Callable[[], float]
    answer: Callable[[int, Received], int] = lambda tries, request: 200
    received: list[Received] = field(default_factory=list)
    url: str = ""

    def accepted(self) -> list[Received]:
        return [r for r in self.received if 200 <= r.answered < 300]

    def tries_of(self, delivery: str) -> int:
        return sum(1 for r in self.received if r.headers.get("X-Baccarat-Delivery") == delivery)


@contextmanager
def receiving(receiver: Receiver) -> Iterator[Receiver]:
    verify = documented_verify()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            secret = receiver.secrets.get(self.path, "")
            request = Received(
                path=self.path,
                headers=dict(self.headers.items()),
                body=body,
                verified=verify(secret, self.headers.get("X-Baccarat-Signature", ""), body, now=receiver.now()),
                answered=CLOSE,
            )
            tries = receiver.tries_of(request.headers.get("X-Baccarat-Delivery", "-"))  # before this one
            status = receiver.answer(tries, request) if request.verified else 401
            request.answered = status
            receiver.received.append(request)
            if status == CLOSE:
                self.close_connection = True
                return
            answer = b'{"ok": true}' if status < 300 else b'{"error": "not now"}'
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # the test reads what arrived, not the server's log

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, name="webhook-receiver", daemon=True
    )
    thread.start()
    receiver.url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield receiver
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@contextmanager
def dripping(every: float) -> Iterator[str]:
    """A receiver that reads each request whole, then answers one byte every ``every``
    seconds, as long as the sender listens: each read of its answer succeeds, so only a
    deadline on the whole attempt ends it. Yields its URL."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.1)
    done = threading.Event()
    answer = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n" + b" " * 1000

    def serve(connection: socket.socket) -> None:
        with connection:
            connection.settimeout(5)
            received = b""
            while b"\r\n\r\n" not in received:
                received += connection.recv(65536)
            for byte in answer:
                if done.wait(every):
                    return
                try:
                    connection.sendall(bytes([byte]))
                except OSError:
                    return  # the sender gave up

    def accept() -> None:
        while not done.is_set():
            try:
                connection, _ = listener.accept()
            except TimeoutError:
                continue
            threading.Thread(target=serve, args=(connection,), daemon=True).start()

    thread = threading.Thread(target=accept, name="dripping-receiver", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/alarms"
    finally:
        done.set()
        thread.join(timeout=5)
        listener.close()
