#!/usr/bin/env python3
"""Serve the browser build (build/web) on localhost: `make web-serve`, and the browser test.

    python -m tools.web.serve [DIR] [--port 8000] [--host 127.0.0.1]

A plain static server plus the two cross-origin isolation headers (COOP/COEP), which let the page
share memory with the firmware's worker (keys reach it while the AI thinks). A static host that
cannot send headers gets them from the site's own sw.js instead.
"""
import functools
import http.server
import os
import sys
import threading

from tools import cli

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The make settings behind the arguments (mk/web.mk), named in the messages under make.
SETTINGS = {"--port": "WEB_PORT", "dir": "WEB_OUT"}
ISOLATION = (("Cross-Origin-Opener-Policy", "same-origin"),
             ("Cross-Origin-Embedder-Policy", "require-corp"))


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map, **{
        ".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
        ".json": "application/json"})
    isolate = True

    def end_headers(self):
        if self.isolate:
            for k, v in ISOLATION:
                self.send_header(k, v)
        self.send_header("Cache-Control", "no-cache")
        http.server.SimpleHTTPRequestHandler.end_headers(self)

    def log_message(self, *args):
        pass


def server(directory, port=0, host="127.0.0.1", isolate=True):
    """A ThreadingHTTPServer for `directory` (port 0: any free one), not started."""
    handler = type("SiteHandler", (Handler,), {"isolate": isolate})
    return http.server.ThreadingHTTPServer((host, port),
                                           functools.partial(handler, directory=directory))


def serve_in_thread(directory, isolate=True):
    """Start a server in a daemon thread: (server, base URL). server.shutdown() stops it."""
    srv = server(directory, isolate=isolate)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv, "http://127.0.0.1:%d/" % srv.server_address[1]


def main(argv=None):
    ap = cli.parser("web-serve", settings=SETTINGS, description=__doc__.split("\n")[0])
    ap.add_argument("dir", nargs="?", default=os.path.join(ROOT, "build", "web"))
    ap.add_argument("--port", type=cli.typed(cli.port), default=8000, help="1-65535 (default 8000)")
    ap.add_argument("--host", default="127.0.0.1", help="0.0.0.0 to let a phone on the same "
                    "network in (its browser then needs http://<this PC's address>:PORT/)")
    args = ap.parse_args(argv)
    if not os.path.exists(os.path.join(args.dir, "index.html")):
        if os.path.exists(args.dir) and not os.path.isdir(args.dir):
            return cli.say("web-serve", "%s is a file, not a site's folder" % args.dir)
        return cli.say("web-serve", "no site in %s: run `make web` first" % args.dir)
    try:
        srv = server(args.dir, args.port, args.host)
    except (OSError, OverflowError) as e:
        return cli.say("web-serve", "cannot listen on %s:%d: %s (another port: %s)" % (
            args.host, args.port, getattr(e, "strerror", None) or e,
            cli.option("--port", args.port % 65535 + 1, settings=SETTINGS)))
    print("web-serve: http://%s:%d/  (Ctrl-C stops)" % (
        "localhost" if args.host in ("127.0.0.1", "0.0.0.0") else args.host, srv.server_address[1]),
        flush=True)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        print("web-serve: stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
