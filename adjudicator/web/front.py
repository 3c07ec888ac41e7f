"""`fluxx-adjudicator serve --front nginx`: Debian's nginx in front of gunicorn.

gunicorn's gthread worker gives a thread to a connection as soon as its first bytes arrive and
that thread reads the rest of the request itself: a few dozen clients that send their headers a
byte at a time hold every thread, and no one else is answered. nginx reads requests without a
thread per connection (an event loop) and hands a request on only once it is whole, so here it
takes the connections on the public address, and gunicorn listens on a unix socket in a private
temporary folder that only nginx talks to. nginx opens a new connection to gunicorn for each
request (HTTP/1.0 upstream, no kept connections), so each request goes to whichever worker
accepts it first, the idle one, and a worker that hangs accepts nothing and is simply passed by.

What nginx refuses itself (a body over 1 MB, a request line over 8 KB, gunicorn down or too
slow) is answered in the contract's error shape, as JSON. nginx runs as a child of this process,
in the foreground, and is stopped when gunicorn's master exits.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from .. import allocator
from ..errors import InputError, error
from .server import run_gunicorn

BODY_LIMIT = "1m"  # above the app's 256 KB, so the app answers its own 413, in its shape
REQUEST_LINE_BUFFER = "8k"  # the longest request line nginx takes: gunicorn's limit behind it
START_TIMEOUT_S = 10.0
# nginx's own refusals, answered in the contract's shape (messages/errors.yaml)
FRONT_ERRORS = {413: "http_too_large", 414: "http_uri_too_long", 502: "http_unavailable",
                504: "http_unavailable"}


def find_nginx() -> str | None:
    """nginx on the PATH, or where Debian puts it (/usr/sbin is not on a user's PATH)."""
    return shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/sbin")


def _quoted(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def nginx_config(folder: Path, host: str, port: int, upstream: Path) -> str:
    """The whole nginx configuration: its files in `folder`, listening on host:port, passing
    whole requests to the unix socket `upstream`."""
    listen = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    # as root, nginx would run its workers as nobody, who cannot reach the private socket
    user = "user root;\n" if os.geteuid() == 0 else ""
    refusals = []
    for status, key in FRONT_ERRORS.items():
        body = json.dumps(InputError(error("", key), status=status).to_json(), ensure_ascii=False)
        refusals.append(f"    error_page {status} /_fluxx_refused/{status};\n"
                        f"    location = /_fluxx_refused/{status} {{\n"
                        f"      internal;\n"
                        f"      default_type application/json;\n"
                        f"      add_header X-Content-Type-Options nosniff always;\n"
                        f"      return {status} {_quoted(body)};\n"
                        f"    }}\n")
    temp = "".join(f"  {kind}_temp_path {folder / kind};\n"
                   for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return f"""# written by fluxx-adjudicator serve --front nginx (adjudicator/web/front.py)
{user}worker_processes 1;
worker_rlimit_nofile 16384;
daemon off;
pid {folder / "nginx.pid"};
error_log stderr warn;
events {{ worker_connections 8192; }}
http {{
  access_log off;
  server_tokens off;
{temp}  client_max_body_size {BODY_LIMIT};
  client_body_buffer_size 256k;
  large_client_header_buffers 4 {REQUEST_LINE_BUFFER};
  client_header_timeout 60s;
  client_body_timeout 60s;
  upstream fluxx {{ server unix:{upstream} fail_timeout=0; }}
  server {{
    listen {listen} backlog=4096;
    location / {{
      proxy_pass http://fluxx;
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_redirect off;
      proxy_read_timeout 60s;
      proxy_intercept_errors off;
    }}
{"".join(refusals)}  }}
}}
"""


def _listening(host: str, port: int) -> bool:
    try:
        socket.create_connection((host, port), timeout=0.2).close()
        return True
    except OSError:
        return False


def start_nginx(nginx: str, folder: Path, host: str, port: int, upstream: Path) -> subprocess.Popen:
    """nginx started on host:port (it answers 502 until gunicorn listens on `upstream`)."""
    config = folder / "nginx.conf"
    config.write_text(nginx_config(folder, host, port, upstream), encoding="utf-8")
    proc = subprocess.Popen([nginx, "-p", str(folder), "-c", str(config), "-e", "stderr"])
    deadline = time.monotonic() + START_TIMEOUT_S
    while not _listening(host, port):
        if proc.poll() is not None or time.monotonic() > deadline:
            stop_nginx(proc)
            raise InputError(error("/front", "front_failed", port=port))
        time.sleep(0.05)
    return proc


def stop_nginx(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)  # nginx's fast shutdown
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def serve_behind_nginx(app: Any, host: str, port: int, workers: int, threads: int) -> int:
    nginx = find_nginx()
    if nginx is None:
        raise InputError(error("/front", "front_missing"))
    folder = Path(tempfile.mkdtemp(prefix="fluxx-front-"))  # private (0700): only we reach it
    upstream = folder / "gunicorn.sock"
    master = os.getpid()
    proc = start_nginx(nginx, folder, host, port, upstream)

    def on_exit(_server: Any) -> None:
        stop_nginx(proc)

    print(f"Fluxx Adjudicator on http://{host}:{port}/: nginx in front of {workers} gunicorn "
          f"workers of {threads} threads (unix:{upstream}; malloc: {allocator.in_use()})",
          flush=True)
    try:
        run_gunicorn(app, f"unix:{upstream}", workers, threads, hooks={"on_exit": on_exit})
    finally:
        if os.getpid() == master:  # a forked worker leaves through here too: only the master
            stop_nginx(proc)
            shutil.rmtree(folder, ignore_errors=True)
    return 0

