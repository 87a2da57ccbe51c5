"""The container and the compose deployment, linted: hadolint on the Dockerfile, the compose file against the Compose
specification's schema, `nginx -t` on the proxy's config, and the rules of this project's deployment (digest-pinned
images, secrets from an env file, log rotation, volumes, a non-root user, cached dependency layers)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from bench.proxy import SITE, Proxy, nginx_binary
from tests.conftest import ROOT
from tests.deploy.test_proxy import requires_nginx

BIN = Path(sys.executable).parent
DIGEST = re.compile(r"^[\w./-]+:[\w.-]+@sha256:[0-9a-f]{64}$")
DOCKERFILE = (ROOT / "Dockerfile").read_text()
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def tool(name: str) -> str:
    path = BIN / name
    if not path.exists():
        pytest.skip(f"needs {name} (the dev set installs it)")
    return str(path)


def test_hadolint_passes_the_dockerfile() -> None:
    done = subprocess.run(
        [tool("hadolint"), str(ROOT / "Dockerfile")], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_compose_file_follows_the_compose_specification() -> None:
    done = subprocess.run(
        [
            tool("check-jsonschema"),
            "--builtin-schema",
            "vendor.compose-spec",
            str(ROOT / "docker-compose.yml"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_image_is_pinned_by_digest() -> None:
    bases = re.findall(r"(?m)^FROM (\S+)", DOCKERFILE)
    assert len(bases) == 2 and all(DIGEST.match(b) for b in bases), bases
    assert len(set(bases)) == 1  # the runtime stage runs the build stage's venv: the same interpreter
    images = [s["image"] for s in COMPOSE["services"].values() if "build" not in s]
    assert images and all(DIGEST.match(i) for i in images), images
    tag = next(i for i in images if i.startswith("nginx:")).split("@")[0].split(":")[1].split("-")[0]
    assert tuple(map(int, tag.split("."))) >= (1, 27, 3)  # `server … resolve` in deploy/nginx.conf


def test_the_image_is_two_stages_non_root_with_dependencies_before_code() -> None:
    build, runtime = DOCKERFILE.split("\nFROM ")[1:]
    lock = build.index("COPY requirements/push.txt")  # the runtime set and Web Push
    install = build.index("--require-hashes")
    code = build.index("COPY app ")
    assert lock < install < code  # a code change leaves the dependency layer cached
    assert "pip wheel" in build and "COPY --from=build /opt/venv /opt/venv" in runtime
    assert (
        "COPY app" not in runtime and "requirements" not in runtime
    )  # only the built venv reaches the image
    users = re.findall(r"(?m)^USER (\S+)", runtime)
    assert users and users[-1] not in ("root", "0")
    assert re.search(r'(?m)^HEALTHCHECK .*CMD \["foodgames", "health"\]', runtime)  # asks the configured PORT
    assert "8000" not in runtime.split("HEALTHCHECK", 1)[1].split("\n", 1)[0]


def test_the_build_context_holds_only_what_the_image_copies() -> None:
    rules = [
        line
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line and not line.startswith("#")
    ]
    assert rules[0] == "*"  # everything else (.git, venvs, data, node_modules, tests) stays out
    kept = {r[1:].rstrip("/") for r in rules if r.startswith("!")}
    copied = set()
    for line in re.findall(r"(?m)^COPY (?!--from)(.+)$", DOCKERFILE):
        copied |= {p.rstrip("/") for p in line.split()[:-1]}
    assert copied == kept


def test_secrets_come_from_an_env_file_and_logs_rotate() -> None:
    services = COMPOSE["services"]
    text = (ROOT / "docker-compose.yml").read_text()
    assert "POSTGRES_PASSWORD:" not in text and "SECRET_KEY:" not in text and "DATABASE_URL:" not in text
    example = (ROOT / "deploy" / "secrets.env.example").read_text()
    keys = set(re.findall(r"(?m)^([A-Z_]+)=", example))
    assert keys == {"POSTGRES_PASSWORD", "DATABASE_URL", "SECRET_KEY"}
    for name in ("app", "db"):
        assert services[name]["env_file"] == "deploy/secrets.env"
    assert "/deploy/secrets.env" in (ROOT / ".gitignore").read_text().splitlines()
    for name, service in services.items():
        logging = service.get("logging", {})
        assert logging.get("driver") == "json-file" and logging["options"]["max-size"], name
    assert "pgdata:/var/lib/postgresql/data" in services["db"]["volumes"]
    assert "redisdata:/data" in services["redis"]["volumes"]
    assert set(COMPOSE["volumes"]) == {"pgdata", "redisdata", "appdata"}


def _nginx_version() -> tuple[int, ...]:
    binary = nginx_binary()
    assert binary is not None
    out = subprocess.run([binary, "-v"], capture_output=True, text=True).stderr
    return tuple(int(n) for n in re.search(r"nginx/(\d+)\.(\d+)\.(\d+)", out).groups())  # type: ignore[union-attr]


def test_nginx_accepts_the_proxy_config(tmp_path: Path) -> None:
    """`nginx -t` on deploy/nginx.conf inside an `http` block, as the image includes it. An nginx older than 1.27.3
    (Debian's) does not know `resolve`: it checks the config with that one upstream line made local, which is the
    only change `bench.proxy.local_site` makes besides the listen and log lines."""
    requires_nginx()
    binary = nginx_binary()
    assert binary is not None
    proxy = Proxy(["127.0.0.1:9"], 8000, tmp_path)
    if _nginx_version() >= (1, 27, 3):
        site = SITE.read_text().replace("listen 8000;", "listen 127.0.0.1:8000;")
        (tmp_path / "site.conf").write_text(
            site.replace("access_log /var/log/nginx/access.log", "access_log off; #")
        )
    args = [
        "-t",
        "-p",
        str(proxy.workdir),
        "-e",
        str(tmp_path / "error.log"),
        "-c",
        str(tmp_path / "nginx.conf"),
    ]
    done = subprocess.run([binary, *args], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert "test is successful" in done.stderr
