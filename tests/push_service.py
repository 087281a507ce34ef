"""A stand-in for a browser vendor's push service, and the browser's side of the encryption.

The service is a real HTTP server on 127.0.0.1 that records each POST; the browser keys are made
here, so a test can decrypt what the site sent exactly as a browser would (RFC 8291).
"""

from __future__ import annotations

import base64
import os
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@dataclass
class BrowserKeys:
    """What a browser keeps for one subscription: the private key and the auth secret."""

    private: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def p256dh(self) -> str:
        return b64url(self.private.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))

    @property
    def auth_b64(self) -> str:
        return b64url(self.auth)

    def decrypt(self, body: bytes) -> bytes:
        return http_ece.decrypt(body, private_key=self.private, auth_secret=self.auth, version="aes128gcm")


@dataclass
class Received:
    path: str
    headers: dict[str, str]  # names in lower case
    body: bytes


class PushService:
    """Answers every POST with ``status`` (201: accepted; 410: the subscription is gone)."""

    def __init__(self) -> None:
        self.received: list[Received] = []
        self.status = 201
        self.arrived = threading.Event()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                headers = {k.lower(): v for k, v in self.headers.items()}
                service.received.append(Received(self.path, headers, self.rfile.read(length)))
                self.send_response(service.status)
                self.send_header("Content-Length", "0")
                self.end_headers()
                service.arrived.set()

            def log_message(self, format: str, *args: Any) -> None:
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def endpoint(self, name: str) -> str:
        return f"http://127.0.0.1:{self.server.server_port}/push/{name}"

    def __enter__(self) -> PushService:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()
