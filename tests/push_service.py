"""A stand-in for a browser vendor's push service, and the browser's side of the encryption.

The service is a real HTTP server on 127.0.0.1 that records each POST; the browser keys are made
here, so a test can decrypt what the site sent exactly as a browser would (RFC 8291). A ``Tarpit``
is a hostile one that answers a byte at a time; a ``Listener`` only notes whether anyone connected;
``SelfSignedTLS`` has a certificate nobody vouches for.
"""

from __future__ import annotations

import base64
import ipaddress
import os
import select
import socket
import ssl
import tempfile
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import http_ece
from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat, PublicFormat
from cryptography.x509.oid import NameOID


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
    """Answers every POST with ``status`` (201: accepted; 410: the subscription is gone), sending
    ``location`` along if set (a redirect)."""

    def __init__(self) -> None:
        self.received: list[Received] = []
        self.status = 201
        self.location = ""
        self.arrived = threading.Event()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                headers = {k.lower(): v for k, v in self.headers.items()}
                service.received.append(Received(self.path, headers, self.rfile.read(length)))
                self.send_response(service.status)
                if service.location:
                    self.send_header("Location", service.location)
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


class Tarpit:
    """A push service that accepts, then answers one byte of a never-ending status line every ``every``
    seconds, up to ``limit`` bytes (so that a client without a total deadline is let go in the end)."""

    def __init__(self, every: float = 0.05, limit: int = 100) -> None:
        self.every, self.limit = every, limit
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.accepted = 0
        self.dripped = 0  # bytes sent, over every connection
        self.hung_up = threading.Event()  # the client closed a connection before the tarpit was done
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)

    def endpoint(self, name: str) -> str:
        return f"http://127.0.0.1:{self.listener.getsockname()[1]}/push/{name}"

    def _serve(self) -> None:
        self.listener.settimeout(0.05)
        while not self._stop.is_set():
            try:
                connection, _address = self.listener.accept()
            except TimeoutError:
                continue
            self.accepted += 1
            threading.Thread(target=self._drip, args=(connection,), daemon=True).start()

    def _drip(self, connection: socket.socket) -> None:
        line = b"HTTP/1.1 200 " + b"O" * self.limit
        with connection:
            for byte in line[: self.limit]:
                if self._stop.is_set():
                    return
                readable, _w, _x = select.select([connection], [], [], self.every)
                if readable:  # the request, or the client hanging up
                    try:
                        if not connection.recv(65536):
                            self.hung_up.set()
                            return
                    except OSError:
                        self.hung_up.set()
                        return
                try:
                    connection.sendall(bytes([byte]))
                except OSError:
                    self.hung_up.set()
                    return
                self.dripped += 1

    def __enter__(self) -> Tarpit:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.listener.close()


class Listener:
    """A TCP port on 127.0.0.1 that nobody should reach: ``contacted()`` says whether anyone did."""

    def __init__(self) -> None:
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.socket.setblocking(False)
        self.port: int = self.socket.getsockname()[1]

    def contacted(self) -> bool:
        # A connection is queued by the kernel once its handshake completes, even if the client has
        # hung up since: accepting one means somebody reached this port.
        try:
            connection, _address = self.socket.accept()
        except BlockingIOError:
            return False
        connection.close()
        return True

    def __enter__(self) -> Listener:
        return self

    def __exit__(self, *exc: object) -> None:
        self.socket.close()


class SelfSignedTLS:
    """An HTTPS port on 127.0.0.1 whose certificate nobody vouches for: notes whether a request got through."""

    def __init__(self) -> None:
        key = ec.generate_private_key(ec.SECP256R1())
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
        now = datetime.now(UTC)
        certificate = (
            x509.CertificateBuilder()
            .subject_name(name)
            .issuer_name(name)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - timedelta(days=1))
            .not_valid_after(now + timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False)
            .sign(key, hashes.SHA256())
        )
        self._directory = tempfile.TemporaryDirectory()
        cert_file, key_file = Path(self._directory.name, "cert.pem"), Path(self._directory.name, "key.pem")
        cert_file.write_bytes(certificate.public_bytes(Encoding.PEM))
        key_file.write_bytes(key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption()))
        self.context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        self.context.load_cert_chain(cert_file, key_file)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.requests: list[bytes] = []
        self.handshakes_failed = 0
        self._thread = threading.Thread(target=self._serve, daemon=True)

    def endpoint(self, name: str) -> str:
        return f"https://127.0.0.1:{self.listener.getsockname()[1]}/push/{name}"

    def _serve(self) -> None:
        connection, _address = self.listener.accept()
        connection.settimeout(10)
        try:
            with self.context.wrap_socket(connection, server_side=True) as tls:
                self.requests.append(tls.recv(65536))
        except (ssl.SSLError, OSError):
            self.handshakes_failed += 1

    def __enter__(self) -> SelfSignedTLS:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._thread.join(timeout=15)
        self.listener.close()
        self._directory.cleanup()
