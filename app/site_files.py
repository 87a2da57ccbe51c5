"""The site's files as the server hands them out: pages checked before every reuse, and the scripts, stylesheets and
pictures they load under an address that names the files' version, kept by browsers for a year.

The site has no build step to give its files hashed names, so the version is one digest of every file under the
frontend folder, taken at start and after an edit. A page's `src="/…"` and `href="/…"` to a script, stylesheet or
picture are rewritten to `/v/<version>/…`; a module's relative imports (`../lib/dom.js`, a game's renderer, its
stylesheet) resolve under the same prefix, so a whole page loads from one version. A repeat visit then asks only for
the page itself (a 304 by ETag) instead of checking each of some twenty modules, one import level after another.
After a deploy the pages name the new version, and no browser can pair a new script with a stylesheet it kept from
before.

The current version's files are read once and held in memory, each text file with a gzipped copy made once, sent to
a browser that accepts it: a first visit downloads under a third of the bytes, and no request waits on the disk.

An address with another version (a page open since before a deploy loading a game's renderer late) gets today's
file from the disk, revalidated like a page rather than kept: the file that version named is no longer there. A file
edited while the server runs (in development) makes a new version within a second, so a reload shows the edit.
"""

from __future__ import annotations

import gzip
import hashlib
import math
import os
import re
import stat
import time
from dataclasses import dataclass
from mimetypes import guess_type
from pathlib import Path
from typing import Final

import anyio
from starlette.datastructures import Headers
from starlette.responses import FileResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

KEPT: Final = "public, max-age=31536000, immutable"
REVALIDATED: Final = "no-cache"
PREFIX: Final = "/v"
# Sent gzipped when the browser accepts it: text. Pictures other than SVG are compressed already.
_COMPRESSIBLE: Final = ("text/", "image/svg+xml", "application/json", "application/manifest+json")
# A page's own reference to a file of the site (not a page, not another site's): "/style.css", "/app/table.js".
_FILE_REFERENCE = re.compile(r'(\s(?:src|href)=")/(?!/)([^"?#]+\.(?:js|css|svg))"')


def frontend_version(root: Path) -> str:
    """The digest of every file under `root`, names and contents: any change to any of them changes it."""
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def _stamp(root: Path) -> list[tuple[str, int, int]]:
    """Every file's name, modification time and size: what a look for an edit compares."""
    return sorted((os.path.join(folder, name), (st := os.stat(os.path.join(folder, name))).st_mtime_ns, st.st_size)
                  for folder, _, names in os.walk(root) for name in names)


class SiteFiles:
    """The frontend folder's pages (rewritten once per version, then held) and its version, looked at again at most
    every `recheck` seconds (a look stats every file: under a millisecond)."""

    def __init__(self, root: Path, recheck: float = 1.0) -> None:
        self.root = root
        self.recheck = recheck
        self.version = "none"
        self._looked = -math.inf
        self._stamp: list[tuple[str, int, int]] | None = None
        self._pages: dict[Path, tuple[bytes, str]] = {}
        self.refresh()

    def refresh(self) -> None:
        """Take the version again if a file was added, removed or changed since the last look."""
        now = time.monotonic()
        if now - self._looked < self.recheck or not self.root.exists():
            return
        self._looked = now
        stamp = _stamp(self.root)
        if stamp != self._stamp:
            self._stamp = stamp
            self.version = frontend_version(self.root)
            self._pages.clear()

    def versioned(self, path: str) -> str:
        """The address of the site's file `path` ("/app/table.js") in this version."""
        return f"{PREFIX}/{self.version}{path}"

    def _page(self, path: Path) -> tuple[bytes, str]:
        if path not in self._pages:
            text = _FILE_REFERENCE.sub(lambda m: f'{m[1]}{self.versioned("/" + m[2])}"', path.read_text("utf-8"))
            body = text.encode()
            self._pages[path] = (body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"')
        return self._pages[path]

    def page(self, path: Path, request_headers: Headers, method: str = "GET") -> Response:
        """The page at `path` with its files' versioned addresses: a 304 to a browser holding it already."""
        self.refresh()
        body, etag = self._page(path)
        headers = {"Cache-Control": REVALIDATED, "ETag": etag}
        if etag in (request_headers.get("if-none-match") or ""):
            return Response(status_code=304, headers=headers)
        return Response(b"" if method == "HEAD" else body, media_type="text/html", headers={
            **headers, "Content-Length": str(len(body))})


class Revalidated(StaticFiles):
    """The frontend's files at their plain addresses, checked by ETag before every reuse; pages through `SiteFiles`."""

    def __init__(self, *, site: SiteFiles) -> None:
        super().__init__(directory=site.root, html=True)
        self.site = site

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        if isinstance(response, FileResponse) and response.status_code == 200 and str(response.path).endswith(".html"):
            return self.site.page(Path(response.path), Headers(scope=scope), scope["method"])
        response.headers.setdefault("Cache-Control", REVALIDATED)
        return response


@dataclass(frozen=True)
class Held:
    """A file of the current version as it is sent: its bytes, a gzipped copy where that is smaller, its type and tag."""

    body: bytes
    gzipped: bytes | None
    media_type: str
    etag: str

    @classmethod
    def of(cls, body: bytes, media_type: str) -> Held:
        packed = gzip.compress(body, 9, mtime=0) if media_type.startswith(_COMPRESSIBLE) else None
        small = packed is not None and len(packed) < 0.9 * len(body)
        return cls(body, packed if small else None, media_type, '"' + hashlib.sha256(body).hexdigest()[:32] + '"')

    def response(self, request_headers: Headers) -> Response:
        """The file for this request: gzipped to a browser that accepts it, a 304 to one holding it already."""
        packed = self.gzipped is not None and "gzip" in request_headers.get("accept-encoding", "")
        # Each encoding its own tag: a cache holding one must not answer for the other.
        etag = self.etag[:-1] + '-gzip"' if packed else self.etag
        headers = {"Cache-Control": KEPT, "ETag": etag}
        if self.gzipped is not None:
            headers["Vary"] = "Accept-Encoding"
        if etag in (request_headers.get("if-none-match") or ""):
            return Response(status_code=304, headers=headers)
        if packed:
            headers["Content-Encoding"] = "gzip"
        return Response(self.gzipped if packed and self.gzipped is not None else self.body,
                        media_type=self.media_type, headers=headers)


class Versioned(StaticFiles):
    """The frontend's files at `/v/<version>/…`: kept for a year under this version's address (from memory), revalidated
    under another's."""

    def __init__(self, *, site: SiteFiles) -> None:
        super().__init__(directory=site.root)
        self.site = site
        self._held: dict[str, Held] = {}
        self._held_version = site.version

    async def get_response(self, path: str, scope: Scope) -> Response:
        version, _, rest = path.partition("/")
        self.site.refresh()
        if version == self.site.version and scope["method"] in ("GET", "HEAD"):
            held = await self._hold(rest)
            if held is not None:
                return held.response(Headers(scope=scope))
        response = await super().get_response(rest or ".", scope)
        if response.status_code in (200, 304):
            response.headers["Cache-Control"] = KEPT if version == self.site.version else REVALIDATED
        return response

    async def _hold(self, path: str) -> Held | None:
        """The file at `path` in this version, read on its first request; None where there is no such file."""
        if self._held_version != self.site.version:
            self._held, self._held_version = {}, self.site.version
        held_now = self._held  # a file read while the version changes goes with the version it was asked under
        if path not in held_now:
            held = await anyio.to_thread.run_sync(self._read, path)
            if held is None:
                return None
            held_now[path] = held
        return held_now[path]

    def _read(self, path: str) -> Held | None:
        try:
            full_path, found = self.lookup_path(path)  # StaticFiles' own: nothing outside the folder
        except (OSError, ValueError):
            return None
        if found is None or not stat.S_ISREG(found.st_mode):
            return None
        return Held.of(Path(full_path).read_bytes(), guess_type(full_path)[0] or "text/plain")
