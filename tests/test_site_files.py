"""The site's version, its pages' rewritten addresses and its files as sent (app/site_files.py)."""

from __future__ import annotations

from pathlib import Path

import httpx
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.routing import Mount

from app.site_files import SiteFiles, Versioned

PAGE = """<!doctype html>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/style.css">
<script type="module" src="/app/table.js"></script>
<a href="/leaders">Leaders</a> <a href="/rules/foodies.html">Rules</a> <a href="rules.css">here</a>
<link rel="stylesheet" href="//elsewhere.example/x.css"> <a href="https://elsewhere.example/y.js">y</a>
"""


def site(tmp_path: Path) -> SiteFiles:
    (tmp_path / "app").mkdir(exist_ok=True)
    (tmp_path / "index.html").write_text(PAGE)
    (tmp_path / "style.css").write_text("body { color: black; }")
    (tmp_path / "app" / "table.js").write_text("export const a = 1;")
    return SiteFiles(tmp_path)


def test_a_page_names_the_sites_own_files_at_the_versions_addresses_and_nothing_else(tmp_path: Path) -> None:
    files = site(tmp_path)
    body = files.page(tmp_path / "index.html", Headers()).body.decode()
    v = f"/v/{files.version}"
    assert f'href="{v}/favicon.svg"' in body and f'href="{v}/style.css"' in body and f'src="{v}/app/table.js"' in body
    # Pages, relative addresses and other sites' files are left as they are.
    for kept in ('href="/leaders"', 'href="/rules/foodies.html"', 'href="rules.css"',
                 'href="//elsewhere.example/x.css"', 'href="https://elsewhere.example/y.js"'):
        assert kept in body


def test_any_change_to_any_file_makes_another_version(tmp_path: Path) -> None:
    first = site(tmp_path).version
    assert SiteFiles(tmp_path).version == first
    (tmp_path / "app" / "table.js").write_text("export const a = 2;")
    second = SiteFiles(tmp_path).version
    (tmp_path / "app" / "new.js").write_text("")
    third = SiteFiles(tmp_path).version
    (tmp_path / "app" / "new.js").rename(tmp_path / "app" / "renamed.js")
    assert len({first, second, third, SiteFiles(tmp_path).version}) == 4


def test_a_browser_holding_the_page_gets_a_304_and_a_changed_page_a_new_etag(tmp_path: Path) -> None:
    files = site(tmp_path)
    page = files.page(tmp_path / "index.html", Headers())
    etag = page.headers["etag"]
    assert files.page(tmp_path / "index.html", Headers({"if-none-match": etag})).status_code == 304
    (tmp_path / "app" / "table.js").write_text("export const a = 3;")
    assert SiteFiles(tmp_path).page(tmp_path / "index.html", Headers()).headers["etag"] != etag


def test_a_file_edited_while_the_server_runs_makes_a_new_version_the_next_page_names(tmp_path: Path) -> None:
    files = site(tmp_path)
    files.recheck = 0  # look at every page (the server looks at most once a second)
    before = files.version
    assert f"/v/{before}/app/table.js" in files.page(tmp_path / "index.html", Headers()).body.decode()
    (tmp_path / "app" / "table.js").write_text("export const a = 4; // edited")
    body = files.page(tmp_path / "index.html", Headers()).body.decode()
    assert files.version != before and f"/v/{files.version}/app/table.js" in body
    held = SiteFiles(tmp_path, recheck=3600)  # until its next look, a server keeps the version it has
    (tmp_path / "style.css").write_text("body { color: red; }")
    version = held.version
    held.page(tmp_path / "index.html", Headers())
    assert held.version == version


async def test_this_versions_files_come_from_memory_gzipped_for_a_browser_that_accepts_it(tmp_path: Path) -> None:
    files = site(tmp_path)
    script = tmp_path / "app" / "words.js"
    body = ("export const words = [" + ", ".join(f'"word{i}"' for i in range(400)) + "];\n").encode()
    script.write_bytes(body)
    files = SiteFiles(tmp_path, recheck=0)
    app = Starlette(routes=[Mount("/v", Versioned(site=files))])
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://site") as client:
        url = f"/v/{files.version}/app/words.js"
        packed = await client.get(url, headers={"Accept-Encoding": "gzip, deflate, br"})
        assert packed.status_code == 200 and packed.content == body  # the client unpacks it
        assert packed.headers["content-encoding"] == "gzip" and packed.headers["vary"] == "Accept-Encoding"
        assert int(packed.headers["content-length"]) < len(body) / 4
        assert packed.headers["content-type"] == "text/javascript; charset=utf-8"
        assert packed.headers["cache-control"] == "public, max-age=31536000, immutable"
        whole = await client.get(url, headers={"Accept-Encoding": "identity"})
        assert whole.content == body and "content-encoding" not in whole.headers
        assert whole.headers["etag"] != packed.headers["etag"]  # a cache holding one does not answer for the other
        for sent, accepts in ((packed, "gzip"), (whole, "identity")):
            again = await client.get(url, headers={"Accept-Encoding": accepts, "If-None-Match": sent.headers["etag"]})
            assert again.status_code == 304 and again.content == b""
        head = await client.head(url, headers={"Accept-Encoding": "gzip"})
        assert head.status_code == 200 and head.headers["etag"] == packed.headers["etag"]
        # A file gzip would not shrink goes as it is, and nothing that is not a file of the folder goes at all.
        small = await client.get(f"/v/{files.version}/app/table.js", headers={"Accept-Encoding": "gzip"})
        assert small.content == b"export const a = 1;" and "content-encoding" not in small.headers
        assert "vary" not in small.headers
        for missing in ("app/none.js", "app", "../index.html"):
            assert (await client.get(f"/v/{files.version}/{missing}")).status_code == 404, missing

        # An edit makes a new version, whose address sends the new file; the old address is revalidated.
        script.write_bytes(body.replace(b"word1", b"term1"))
        assert (await client.get(f"/v/{files.version}/style.css")).status_code == 200  # the server looks again
        edited = await client.get(f"/v/{files.version}/app/words.js")
        assert files.version not in url and b"term1" in edited.content
        assert (await client.get(url)).headers["cache-control"] == "no-cache"
