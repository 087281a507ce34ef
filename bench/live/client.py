"""Scripted browsers: HTTP through httpx with their own cookies, sockets through `websockets`.

They see the site only as a browser does: pages, htmx fragments, WebSocket frames. The server's
cookies are Secure (DEBUG off), so each browser keeps its own cookies and presents itself as coming
through a TLS-terminating proxy (X-Forwarded-Proto), as in production.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import re
import time
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import urlsplit

import httpx
import websockets

# Where a fragment carries the match version today (the section's data-version, the forms' hidden
# field) and where a JSON message would; any of them counts.
_VERSION_PATTERNS = [
    re.compile(r'data-version="(\d+)"'),
    re.compile(r'name="version"\s+value="(\d+)"'),
    re.compile(r'value="(\d+)"\s+name="version"'),
    re.compile(r'"version"\s*:\s*(\d+)'),
]
_CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken"\s+value="([^"]+)"')
_BUTTON = re.compile(r"<button\b[^>]*>", re.S)
_SQUARE = re.compile(r'name="square"\s+value="([a-h][1-8])"')
_INVITE = re.compile(r'class="invite-link"[^>]*\bvalue="([^"]+)"')
_TOKEN = re.compile(r'name="token"\s+value="([^"]+)"')


def versions_in(text: str) -> int | None:
    """The highest match version a page, fragment or frame carries, or None."""
    found = [int(m) for p in _VERSION_PATTERNS for m in p.findall(text)]
    return max(found) if found else None


def legal_squares(text: str) -> list[str]:
    """The Reversi squares this fragment offers to play (enabled square buttons)."""
    squares = []
    for tag in _BUTTON.findall(text):
        m = _SQUARE.search(tag)
        if m and not re.search(r"\sdisabled\b", tag):
            squares.append(m.group(1))
    return squares


def invite_path(text: str) -> str | None:
    m = _INVITE.search(text)
    return urlsplit(html.unescape(m.group(1))).path if m else None


def invite_token(text: str) -> str | None:
    m = _TOKEN.search(text)
    return html.unescape(m.group(1)) if m else None


class Browser:
    """One person's browser: a cookie jar and the CSRF token of the last page it loaded."""

    def __init__(self, client: httpx.AsyncClient, base: str, ws_base: str) -> None:
        self.client = client
        self.base = base
        self.ws_base = ws_base
        self.cookies: dict[str, str] = {}
        self.csrf = ""
        self.username = ""

    def _headers(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        headers = {"X-Forwarded-Proto": "https", "Origin": self.origin}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if extra:
            headers.update(extra)
        return headers

    @property
    def origin(self) -> str:
        return "https://" + urlsplit(self.base).netloc

    def _keep(self, response: httpx.Response) -> None:
        for header in response.headers.get_list("set-cookie"):
            jar: SimpleCookie = SimpleCookie()
            jar.load(header)
            for name, morsel in jar.items():
                if morsel["max-age"] == "0" or morsel.value == "":
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.value
        # The shared client must not replay anything on its own.
        self.client.cookies.clear()
        # The token of the page's forms; else the cookie's, which changes on log-in (the old one is stale).
        m = _CSRF_INPUT.search(response.text) if "text/html" in response.headers.get("content-type", "") else None
        if m:
            self.csrf = m.group(1)
        elif "csrftoken" in self.cookies and (not self.csrf or "csrftoken=" in response.headers.get("set-cookie", "")):
            self.csrf = self.cookies["csrftoken"]

    async def get(self, path: str, *, htmx: bool = False, follow: bool = True) -> httpx.Response:
        extra = {"HX-Request": "true"} if htmx else None
        for _hop in range(5):
            response = await self._get_once(path, extra)
            self._keep(response)
            if not (follow and response.is_redirect):
                return response
            path = urlsplit(response.headers["location"]).path
        return response

    async def _get_once(self, path: str, extra: dict[str, str] | None, attempts: int = 3) -> httpx.Response:
        # A GET is safe to repeat: an overloaded server may drop a kept-alive connection under it.
        for attempt in range(attempts):
            try:
                return await self.client.get(self.base + path, headers=self._headers(extra))
            except httpx.TransportError:
                if attempt == attempts - 1:
                    raise
        raise AssertionError("unreachable")

    async def post(self, path: str, data: dict[str, str], *, htmx: bool = False, follow: bool = True) -> httpx.Response:
        extra = {"X-CSRFToken": self.csrf, "Referer": self.origin + path}
        if htmx:
            extra.update({"HX-Request": "true", "HX-Target": "match-body"})
        response = await self.client.post(
            self.base + path, data={"csrfmiddlewaretoken": self.csrf, **data}, headers=self._headers(extra)
        )
        self._keep(response)
        if follow and response.is_redirect:
            return await self.get(urlsplit(response.headers["location"]).path)
        return response

    async def open_socket(self, path: str, *, timeout: float = 20) -> Socket:
        ws = await websockets.connect(
            self.ws_base + path,
            additional_headers={k: v for k, v in self._headers().items() if k in ("Cookie", "Origin")},
            open_timeout=timeout,
            ping_interval=None,
            compression=None,
            max_size=None,
        )
        sock = Socket(ws)
        sock.task = asyncio.get_running_loop().create_task(sock.read())
        return sock


@dataclass
class Frame:
    at: float
    version: int | None


@dataclass
class Socket:
    """An open WebSocket: when each frame arrived and which version it carried, and the newest state."""

    ws: Any
    frames: list[Frame] = field(default_factory=list)
    latest_version: int | None = None
    latest_text: str = ""
    task: asyncio.Task[None] | None = None
    closed: bool = False
    _changed: asyncio.Event = field(default_factory=asyncio.Event)

    async def read(self) -> None:
        try:
            async for message in self.ws:
                text = message if isinstance(message, str) else message.decode("utf-8", "replace")
                version = versions_in(text)
                self.frames.append(Frame(time.perf_counter(), version))
                # Only the newest state's text is kept: a long run must not hold every page it was sent.
                if version is not None and (self.latest_version is None or version >= self.latest_version):
                    self.latest_version, self.latest_text = version, text
                self._changed.set()
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed = True
            self._changed.set()

    def first_with(self, version: int, after: float) -> Frame | None:
        # Scan back from the newest frame: only frames since ``after`` matter, and they are at the end.
        found = None
        for frame in reversed(self.frames):
            if frame.at < after:
                break
            if frame.version is not None and frame.version >= version:
                found = frame
        return found

    async def _wait(self, done: Any, timeout: float) -> None:
        deadline = time.perf_counter() + timeout
        while not done() and not self.closed:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                return
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), remaining)
            except TimeoutError:
                return

    async def wait_version(self, version: int, after: float, timeout: float) -> Frame | None:
        """The first frame arriving after ``after`` that carries ``version`` or newer (None on timeout)."""
        await self._wait(lambda: self.first_with(version, after) is not None, timeout)
        return self.first_with(version, after)

    async def wait_frames(self, count: int, timeout: float) -> bool:
        await self._wait(lambda: len(self.frames) >= count, timeout)
        return len(self.frames) >= count

    async def close(self) -> None:
        with contextlib.suppress(TimeoutError, websockets.WebSocketException, OSError):
            await asyncio.wait_for(self.ws.close(), 5)
        if self.task is not None:
            self.task.cancel()
