"""nginx with the deployment's own config (deploy/nginx.conf) in front of local server processes.

Used by `bench/load.py --proxy` and by tests/deploy: the same routing rules as docker-compose.yml,
only with local upstreams and port, and unprivileged (its pid, logs and temporary files in a work folder).
"""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "deploy" / "nginx.conf"
UPSTREAM_LINE = re.compile(r"(?m)^(\s*)server app:8000 resolve;\n")


def nginx_binary() -> str | None:
    """The nginx executable, if this machine has one."""
    return shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)


ACCESS_LOG = "/var/log/nginx/access.log"


def local_site(upstreams: list[str], port: int, access_log: Path | None = None) -> str:
    """deploy/nginx.conf with these `host:port` upstreams in place of the compose service it resolves, listening on
    127.0.0.1:`port`, its access log written to `access_log` (none without)."""
    site = SITE.read_text()
    first = UPSTREAM_LINE.search(site)
    if first is None or "listen 8000;" not in site:
        raise RuntimeError(f"{SITE} no longer has the upstream and listen lines this rewrites")
    servers = "".join(f"{first.group(1)}server {u};\n" for u in upstreams)
    site = site[: first.start()] + servers + UPSTREAM_LINE.sub("", site[first.start():])
    if ACCESS_LOG not in site:
        raise RuntimeError(f"{SITE} no longer has the access log line this rewrites")
    site = site.replace(f"access_log {ACCESS_LOG} foodgames;",
                        f"access_log {access_log} foodgames;" if access_log else "access_log off;")
    return site.replace("listen 8000;", f"listen 127.0.0.1:{port} backlog=4096;")


class Proxy:
    """One nginx process (one worker) serving `local_site` from `workdir`."""

    def __init__(self, upstreams: list[str], port: int, workdir: Path, workers: int = 1,
                 access_log: bool = False) -> None:
        self.port, self.workdir = port, workdir
        workdir.mkdir(parents=True, exist_ok=True)
        self.access_log = workdir / "access.log" if access_log else None
        (workdir / "site.conf").write_text(local_site(upstreams, port, self.access_log))
        temp = "\n".join(f"    {kind}_temp_path {workdir}/{kind};" for kind in
                         ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        (workdir / "nginx.conf").write_text(f"""daemon off;
worker_processes {workers};
worker_rlimit_nofile 20000;
pid {workdir}/nginx.pid;
error_log {workdir}/error.log warn;
events {{ worker_connections 16000; }}
http {{
    access_log off;
{temp}
    include {workdir}/site.conf;
}}
""")
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 10) -> Proxy:
        binary = nginx_binary()
        if binary is None:
            raise RuntimeError("nginx is not installed (apt-get install nginx-light)")
        self.proc = subprocess.Popen(
            [binary, "-p", str(self.workdir), "-e", str(self.workdir / "error.log"), "-c",
             str(self.workdir / "nginx.conf")],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"nginx exited: {self.error_log()[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"nginx did not start: {self.error_log()[-2000:]}")

    def error_log(self) -> str:
        path = self.workdir / "error.log"
        return path.read_text() if path.exists() else ""

    def pids(self) -> list[int]:
        """The master and its workers (for CPU accounting)."""
        if self.proc is None:
            return []
        found = [self.proc.pid]
        for status in Path("/proc").glob("[0-9]*/status"):
            try:
                fields = dict(line.split(":\t", 1) for line in status.read_text().splitlines() if ":\t" in line)
            except OSError:
                continue
            if fields.get("PPid", "").strip() == str(self.proc.pid):
                found.append(int(status.parent.name))
        return found

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()  # nginx: fast shutdown
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
