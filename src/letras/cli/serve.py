"""``letras serve``: the web app (lobby and game rooms) on uvicorn.

The command binds the socket itself, so the address it prints is the one bound, even with
``--port 0`` (any free port); the app is :func:`letras.server.app.create_app`.
"""

from __future__ import annotations

import argparse
import gc
import signal
import socket
import sys
from types import FrameType
from typing import Any

GC_THRESHOLD = 50_000
"""Allocations between the collector's youngest passes in the server (Python's default: 700)."""


def add_parser(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "serve",
        help="play in the browser: run the web app",
        description="Run the web app: open the address it prints in a browser, make a game "
        "and send each player their link. Games are kept in a database (default: an SQLite "
        "file in the user's data directory).",
    )
    p.add_argument("--db", metavar="URL",
                   help="the database, as an SQLAlchemy URL (sqlite:///FILE, "
                        "postgresql+psycopg://...); default: letras.db in the data directory")
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (127.0.0.1)")
    p.add_argument("--port", type=int, default=8000,
                   help="the port to listen on (8000; 0: any free port)")
    p.add_argument("--ai-workers", type=int, default=1, metavar="N",
                   help="processes that think for the computer seats (1)")
    p.add_argument("--ai-seconds", type=float, default=1.0, metavar="S",
                   help="how long a computer seat may think a move, in seconds (1)")
    p.add_argument("--ai-lease", type=float, default=10.0, metavar="S",
                   help="several servers on one PostgreSQL: after how many seconds another "
                        "server plays a computer's turn held by a server that stopped (10)")
    p.set_defaults(func=run)


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host`` and ``port`` (IPv4 or IPv6, as the host is)."""
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def address_of(sock: socket.socket) -> str:
    """The page's address for a bound socket."""
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def run(args: argparse.Namespace) -> int:
    import uvicorn

    class _Server(uvicorn.Server):
        """uvicorn's server, noting a Ctrl-C: the exit status is 130 then, even when uvicorn
        does not raise it again (it re-raises only the signals it saw through its own
        handler, after putting back the handlers it found)."""

        interrupted = False

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            if sig == signal.SIGINT:
                self.interrupted = True
            super().handle_exit(sig, frame)

    from letras.server.app import create_app

    if args.ai_workers < 1:
        print("letras: --ai-workers needs 1 or more", file=sys.stderr)
        return 2
    if args.ai_seconds <= 0:
        print("letras: --ai-seconds needs a positive number", file=sys.stderr)
        return 2
    if args.ai_lease <= 0:
        print("letras: --ai-lease needs a positive number", file=sys.stderr)
        return 2
    try:
        sock = bind(args.host, args.port)
    except OSError as e:
        print(f"letras: cannot listen on {args.host}:{args.port}: {e.strerror or e}",
              file=sys.stderr)
        return 1
    from letras.cli.warm import start
    from letras.editions import DEFAULT_EDITION, find_edition

    # A first run: the default word graph is built and the kernels compiled in a child
    # process while the first page is read, not when the first game asks for them.
    start(find_edition(DEFAULT_EDITION), graph=True)
    app = create_app(args.db, ai_workers=args.ai_workers, ai_seconds=args.ai_seconds,
                     lease_seconds=args.ai_lease)
    config = uvicorn.Config(app, ws="websockets-sansio", ws_max_size=1024 * 1024,
                            log_level="warning", lifespan="on")
    server = _Server(config)
    # The games in memory are many small objects that live long: the collector's full passes
    # over them were the slowest answers (p99). Objects of the start stay out of its sight,
    # and it passes less often (reference counting frees nearly everything anyway).
    gc.freeze()
    gc.set_threshold(GC_THRESHOLD, 20, 50)
    print(f"letras: open {address_of(sock)} in your browser", flush=True)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn raises Ctrl-C again once it has shut down
        return 130
    finally:
        sock.close()
    return 130 if server.interrupted else 0
