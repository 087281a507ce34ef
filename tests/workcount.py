"""Work done, counted instead of timed: a test's verdict must not depend on how busy the machine is."""

from __future__ import annotations

import socket
import sys
from collections.abc import Callable
from typing import Any


def calls_made[T](fn: Callable[[], T]) -> tuple[T, int]:
    """Run ``fn`` and count the function calls it makes (Python and built-in): deterministic for a given input."""
    count = 0

    def profile(_frame: Any, event: str, _arg: Any) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        result = fn()
    finally:
        sys.setprofile(previous)
    return result, count


def network_waits_made[T](fn: Callable[[], T]) -> tuple[T, int]:
    """Run ``fn`` and count its calls, on this thread, that may wait on another machine: a connect, send
    or receive on a socket that blocks (not a non-blocking one, such as the pipe a thread uses to wake
    an asyncio loop), a TLS read, write or handshake, and a name lookup. Each is a chance for a slow or
    hostile server to hold this thread; zero means none could."""
    count = 0

    def profile(_frame: Any, event: str, arg: Any) -> None:
        nonlocal count
        if event != "c_call":
            return
        name, owner = getattr(arg, "__name__", ""), getattr(arg, "__self__", None)
        if isinstance(owner, socket.socket):
            count += name in _SOCKET_WAITS and owner.gettimeout() != 0.0
        elif type(owner).__module__ == "_ssl":
            count += name in _TLS_WAITS
        elif getattr(arg, "__module__", None) == "_socket":
            count += name in _LOOKUPS

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        result = fn()
    finally:
        sys.setprofile(previous)
    return result, count


_SOCKET_WAITS = frozenset(
    {"connect", "connect_ex", "accept", "recv", "recv_into", "recvfrom", "recvfrom_into", "recvmsg", "send", "sendall"}
    | {"sendto", "sendmsg"}
)
_TLS_WAITS = frozenset({"read", "write", "do_handshake", "shutdown"})
_LOOKUPS = frozenset({"getaddrinfo", "gethostbyname", "gethostbyname_ex", "gethostbyaddr", "getnameinfo"})
