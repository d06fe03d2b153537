"""`dgm serve`: a local, read-only web app over a run's archive (Starlette on uvicorn).

The page (static/) polls /api/version and refetches what changed. Safety:
- it binds to 127.0.0.1 by default and then answers only requests addressed to a loopback
  name (a page elsewhere cannot reach it by DNS rebinding);
- a token, required off loopback, must come with every request: `?token=` once (the
  reply sets an HttpOnly, SameSite=Strict cookie), the cookie, or `Authorization: Bearer`;
- every reply forbids scripts from anywhere but the app itself (Content-Security-Policy),
  and the page puts agent-written text into the document as text only."""

from __future__ import annotations

import hmac
import ipaddress
import os
import socket
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from .data import InspectError
from .watch import Watch

COOKIE = "dgm_token"
LOOPBACK_NAMES = {"localhost", "127.0.0.1", "[::1]", "::1"}
HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        b"base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cache-control", b"no-store"),
]
STATIC = {"app.js": "text/javascript", "tree.js": "text/javascript", "app.css": "text/css", "index.html": "text/html"}


class ServeError(Exception):
    """`dgm serve` cannot start as asked; the message says why."""


def is_loopback(host: str) -> bool:
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def host_name(header: str) -> str:
    """The name in a Host header, without its port ("[::1]:8765" gives "[::1]")."""
    if header.startswith("["):
        return header[: header.find("]") + 1]
    return header.rsplit(":", 1)[0]


def cookie(header: str, name: str) -> str:
    """Cookie `name` of a Cookie header ("" if absent); never raises on a malformed one."""
    for part in header.split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return value.strip('"')
    return ""


def _static(name: str) -> bytes:
    return resources.files("dgm.inspect").joinpath("static", name).read_bytes()


class Guard:
    """ASGI middleware: the Host check, the token, and the security headers on every reply."""

    def __init__(self, app: Any, token: str | None, loopback_only: bool):
        self.app, self.token, self.loopback_only = app, token, loopback_only

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}

        async def send_with_headers(message: dict) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *HEADERS]}
            await send(message)

        if self.loopback_only and not is_loopback(host_name(headers.get("host", ""))):
            return await PlainTextResponse("wrong host", 421)(scope, receive, send_with_headers)
        from_query = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token", [""])[0]
        if self.token is not None:
            offered = [
                from_query,
                cookie(headers.get("cookie", ""), COOKIE),
                headers.get("authorization", "").removeprefix("Bearer "),
            ]
            if not any(o and hmac.compare_digest(o.encode(), self.token.encode()) for o in offered):
                return await PlainTextResponse("a token is required: open the URL dgm serve printed", 401)(
                    scope, receive, send_with_headers
                )

        async def send_cookie(message: dict) -> None:
            if message["type"] == "http.response.start" and from_query and self.token is not None:
                cookie = f"{COOKIE}={self.token}; HttpOnly; SameSite=Strict; Path=/".encode("latin-1")
                message = {**message, "headers": [*message.get("headers", []), (b"set-cookie", cookie)]}
            await send_with_headers(message)

        await self.app(scope, receive, send_cookie)


def make_app(watch: Watch, token: str | None = None, loopback_only: bool = True) -> Guard:
    def static(request: Request) -> Response:
        name = request.path_params.get("name", "index.html")
        if name not in STATIC:
            return PlainTextResponse("not found", 404)
        return Response(_static(name), media_type=STATIC[name])

    def api(compute: Callable[[Request], Any]) -> Callable[[Request], Response]:
        def endpoint(request: Request) -> Response:  # sync: Starlette runs it in its thread pool
            try:
                return JSONResponse(compute(request))
            except InspectError as exc:
                return JSONResponse({"error": str(exc)}, 404)
            except (ValueError, OverflowError):
                return JSONResponse({"error": "node and evaluation ids are whole numbers"}, 400)

        return endpoint

    def pair(request: Request) -> tuple[int, int]:
        return int(request.query_params.get("a", "")), int(request.query_params.get("b", ""))

    routes = [
        Route("/", static),
        Route("/static/{name}", static),
        Route("/api/version", api(lambda r: watch.version())),
        Route("/api/overview", api(lambda r: watch.overview())),
        Route("/api/tree", api(lambda r: watch.tree())),
        Route("/api/node/{id:int}", api(lambda r: watch.node(r.path_params["id"]))),
        Route("/api/evaluation/{id:int}", api(lambda r: watch.evaluation(r.path_params["id"]))),
        Route("/api/expansion/{id:int}", api(lambda r: watch.expansion(r.path_params["id"]))),
        Route("/api/diff", api(lambda r: watch.diff(*pair(r)))),
        Route("/api/compare", api(lambda r: watch.compare(*pair(r)))),
        Route("/api/running", api(lambda r: watch.running())),
        Route("/api/job/{id:int}/trajectory", api(lambda r: watch.live_trajectory(r.path_params["id"]))),
    ]
    return Guard(Starlette(routes=routes), token, loopback_only)


def bind(host: str, port: int) -> socket.socket:
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        return socket.create_server((host.strip("[]"), port), family=family, reuse_port=False)
    except OSError as exc:
        raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from exc


def serve(run_dir: Path, host: str, port: int, token: str | None, ready: Callable[[str], None], nice: int = 0) -> None:
    """Serve until interrupted; `ready` gets the URL to open once the socket listens. Once
    it listens, the process lowers its CPU priority by `nice`, so that on a busy machine the
    run it watches gets the CPU first and the page waits instead."""
    import uvicorn

    if not is_loopback(host) and not token:
        raise ServeError(f"--host {host} makes the run visible to other machines: give --token as well")
    watch = Watch(run_dir)
    try:
        sock = bind(host, port)
    except ServeError:
        watch.close()
        raise
    try:
        if nice > 0:
            os.nice(nice)
        watch.warm()
        shown = f"[{host}]" if ":" in host else host
        ready(f"http://{shown}:{sock.getsockname()[1]}/" + (f"?token={token}" if token else ""))
        config = uvicorn.Config(make_app(watch, token, is_loopback(host)), log_level="warning", lifespan="off")
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
        watch.close()
