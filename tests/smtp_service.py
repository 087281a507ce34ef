"""A stand-in mail server: a real SMTP dialogue on 127.0.0.1 that keeps every message it is given.

For hostile ones, ``tests.push_service.Tarpit`` drips a greeting that never ends (a mail client waits
for the greeting as an HTTP client waits for the status line), and a listening socket that never
accepts is a server that takes the connection and never says a word.
"""

from __future__ import annotations

import email
import email.policy
import socketserver
import threading
from dataclasses import dataclass
from email.message import EmailMessage


@dataclass
class Delivered:
    sender: str
    recipients: list[str]
    message: EmailMessage


class SMTPService:
    """Answers each command at once (no authentication, no TLS) and records each message."""

    def __init__(self) -> None:
        self.delivered: list[Delivered] = []
        self.arrived = threading.Event()
        service = self

        class Handler(socketserver.StreamRequestHandler):
            def reply(self, line: str) -> None:
                self.wfile.write(line.encode() + b"\r\n")
                self.wfile.flush()

            def handle(self) -> None:
                self.reply("220 stand-in ESMTP")
                sender, recipients = "", []
                while line := self.rfile.readline():
                    command = line.decode().strip()
                    verb = command[:4].upper()
                    if verb == "EHLO":
                        self.reply("250-stand-in")
                        self.reply("250 8BITMIME")
                    elif verb == "HELO":
                        self.reply("250 stand-in")
                    elif verb == "MAIL":
                        sender, recipients = command.split(":", 1)[1].strip().strip("<>"), []
                        self.reply("250 OK")
                    elif verb == "RCPT":
                        recipients.append(command.split(":", 1)[1].strip().strip("<>"))
                        self.reply("250 OK")
                    elif verb == "DATA":
                        self.reply("354 go on")
                        data = b""
                        while (chunk := self.rfile.readline()) not in (b".\r\n", b""):
                            data += chunk[1:] if chunk.startswith(b"..") else chunk
                        message = email.message_from_bytes(data, policy=email.policy.default)
                        service.delivered.append(Delivered(sender, recipients, message))  # type: ignore[arg-type]
                        self.reply("250 queued")
                        service.arrived.set()
                    elif verb == "QUIT":
                        self.reply("221 bye")
                        return
                    else:
                        self.reply("250 OK")

        class Server(socketserver.ThreadingTCPServer):
            daemon_threads = True
            allow_reuse_address = True

        self.server = Server(("127.0.0.1", 0), Handler)
        self.port: int = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> SMTPService:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()
