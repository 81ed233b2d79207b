"""Operating behind the repository's own nginx.conf and with a rate-limit store that
fails, on real servers: ``scorekeeper serve`` in a child process (:mod:`.servers`),
Debian's nginx running a copy of ``nginx.conf`` (its upstream ``app:8000`` rewritten
to the server's port, its ``listen 80`` to a free port) and a throwaway redis-server
(:mod:`tests.redis_server`), stopped in the middle of a test. Also the compose files:
the ``scale`` profile publishes only the proxy's port (docker is not run here: the
YAML is read as compose merges it)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from http.cookiejar import CookieJar
from pathlib import Path

import pytest
import yaml

from tests.hosting.servers import DEADLINE, fetch, free_port, serving
from tests.redis_server import running_redis, stop

ROOT = Path(__file__).resolve().parents[2]


def _serve(tmp_path: Path, **settings: str) -> tuple[list[str], str, dict[str, str]]:
    """The command, base URL and environment of a one-worker ``serve`` with ``settings``."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
    for name in ("DATABASE_URL", "REDIS_URL", "PUBLIC_URL", "RATELIMIT_STORAGE_URI"):
        env.pop(name, None)
    env |= {"SCOREKEEPER_DATA": str(tmp_path / "data"), "SCOREKEEPER_JOB_PROCESSES": "0"}
    env |= {"SCOREKEEPER_PLAY_REVIEW": "off", **settings}
    command = [sys.executable, "-m", "scorekeeper", "serve", "--host", "127.0.0.1"]
    command += ["--port", str(port), "--workers", "1"]
    return command, f"http://127.0.0.1:{port}", env


def _wait_for(url: str) -> None:
    for _ in range(int(DEADLINE / 0.2)):  # a bound against a hang, never a measure
        try:
            if fetch(url)[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"{url} did not answer 200")


@contextmanager
def nginx_in_front(tmp_path: Path, app_port: int) -> Iterator[int]:
    """The repository's nginx.conf (upstream and listen port rewritten) in front of the
    app at ``app_port``: yields the proxy's port."""
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(binary).exists():
        pytest.skip("nginx is not installed (scripts/test installs it)")
    port = free_port()
    folder = tmp_path / "nginx"
    folder.mkdir()
    site = (ROOT / "nginx.conf").read_text()
    assert "server app:8000;" in site and "listen 80;" in site
    site = site.replace("server app:8000;", f"server 127.0.0.1:{app_port};")
    (folder / "site.conf").write_text(site.replace("listen 80;", f"listen 127.0.0.1:{port};"))
    (folder / "nginx.conf").write_text(
        f"daemon off; master_process off; pid {folder}/nginx.pid;\nevents {{}}\n"
        f"http {{ access_log off; include {folder}/site.conf; }}\n"
    )
    log = folder / "error.log"
    command = [binary, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-e", str(log)]
    with open(folder / "out.log", "wb") as out:
        proxy = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    try:
        _wait_for(f"http://127.0.0.1:{port}/healthz")
        yield port
    finally:
        proxy.terminate()
        proxy.wait(timeout=60)


def _get(url: str, headers: dict[str, str]) -> tuple[int, str]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def _new_game(base: str) -> str:
    """A scoresheet game started through ``base`` as a phone would (its form, its
    CSRF token and cookie): the game's slug."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
    with opener.open(f"{base}/games/new", timeout=30) as answer:
        page = answer.read().decode()
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert token, "the new game form has its CSRF token"
    fields = {"csrf_token": token.group(1), "player_0": "Ann", "player_1": "Bob"}
    fields |= {"preset": "standard", "first_dealer": "0"}
    with opener.open(f"{base}/games/new", urllib.parse.urlencode(fields).encode()) as answer:
        return str(answer.url).rstrip("/").rsplit("/", 1)[-1]


def _links(page: str) -> list[str]:
    return re.findall(r'<input readonly value="([^"]+)"', page)


def test_share_links_through_nginx_carry_the_address_and_port_the_phone_opened(tmp_path):
    command, base, env = _serve(tmp_path, TRUSTED_PROXIES="1")
    app_port = int(base.rsplit(":", 1)[1])
    with (
        serving(command, base, env, tmp_path, tmp_path / "serve.log"),
        nginx_in_front(tmp_path, app_port) as port,
    ):
        slug = _new_game(f"http://127.0.0.1:{port}")
        share = f"http://127.0.0.1:{port}/games/{slug}/share"
        status, page = _get(share, {"Host": f"rum.test:{port}"})
        assert status == 200
        links = _links(page)
        assert links and all(link.startswith(f"http://rum.test:{port}/games/") for link in links)
        status, page = _get(share, {})  # opened as 127.0.0.1 on this machine: the LAN's
        links = _links(page)
        assert status == 200 and links
        assert all(urllib.parse.urlsplit(link).port == port for link in links), links


def test_a_forged_forwarded_for_through_nginx_gets_no_fresh_count(tmp_path):
    command, base, env = _serve(tmp_path, TRUSTED_PROXIES="1", RATELIMIT_API="3 per minute")
    app_port = int(base.rsplit(":", 1)[1])
    with (
        serving(command, base, env, tmp_path, tmp_path / "serve.log"),
        nginx_in_front(tmp_path, app_port) as port,
    ):
        statuses = [
            _get(f"http://127.0.0.1:{port}/api/v1/rules", {"X-Forwarded-For": f"203.0.113.{n}"})[0]
            for n in range(5)
        ]
    assert statuses[:3] == [200, 200, 200]
    assert statuses[3:] == [429, 429], "each forged address would start a count of its own"


UNREACHABLE = "Rate limit storage unreachable"
"""flask-limiter's warning when its store fails (then each process counts in memory)."""


def test_a_rate_limit_store_that_stops_answering_is_logged_once_and_reported(tmp_path):
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed (scripts/test installs it)")
    with running_redis(binary) as socket:
        store = {"RATELIMIT_STORAGE_URI": f"redis+unix://{socket}", "REDIS_URL": f"unix://{socket}"}
        command, base, env = _serve(tmp_path, RATELIMIT_API="4 per minute", **store)
        log = tmp_path / "serve.log"
        with serving(command, base, env, tmp_path, log):
            health = json.loads(fetch(f"{base}/healthz")[1])
            assert health["rate_limits"] == "answering" and health["bus"] == "redis: answering"
            assert fetch(f"{base}/api/v1/rules")[0] == 200
            stop(socket)
            statuses = [fetch(f"{base}/api/v1/rules")[0] for _ in range(6)]
            status, body = fetch(f"{base}/healthz")
    assert set(statuses) <= {200, 429} and 429 in statuses, statuses
    assert log.read_text().count(UNREACHABLE) == 1
    health = json.loads(body)
    assert status == 200 and health["status"] == "ok"
    assert health["rate_limits"].startswith("not answering")
    assert health["bus"] == "redis: not answering"


class _ComposeLoader(yaml.SafeLoader):
    """YAML as compose reads it: ``!reset`` marks a value that replaces (here: empties)
    what earlier files gave, instead of merging with it."""


_ComposeLoader.add_constructor("!reset", lambda loader, node: {"!reset": True})


def _compose(name: str) -> dict[str, object]:
    return dict(yaml.load((ROOT / name).read_text(), Loader=_ComposeLoader))


def _env_file(name: str) -> dict[str, str]:
    lines = (ROOT / name).read_text().splitlines()
    pairs = [line.split("=", 1) for line in lines if line and not line.startswith("#")]
    return {key: value for key, value in pairs}


def test_the_scale_profile_publishes_only_the_proxy_and_starts_it_after_a_healthy_app():
    scale = _env_file("scale.env")
    separator = scale.get("COMPOSE_PATH_SEPARATOR", os.pathsep)
    files = scale["COMPOSE_FILE"].split(separator)
    assert files[0] == "compose.yaml" and scale["TRUSTED_PROXIES"] == "1"
    base, overrides = _compose(files[0]), [_compose(name) for name in files[1:]]
    services = base["services"]
    assert isinstance(services, dict)
    assert services["app"]["ports"], "without scale.env the app itself is published"
    assert any(o["services"]["app"]["ports"] == {"!reset": True} for o in overrides)
    assert all("ports" not in o["services"].get("proxy", {}) for o in overrides)
    proxy = services["proxy"]
    assert proxy["ports"] == ["${PROXY_PORT:-8080}:80"]
    assert proxy["depends_on"]["app"]["condition"] == "service_healthy"
    assert "HEALTHCHECK" in (ROOT / "Dockerfile").read_text()


def test_every_event_stream_of_the_app_passes_nginx_unbuffered(tmp_path):
    from tests.conftest import make_app

    config = (ROOT / "nginx.conf").read_text()
    unbuffered = [
        block.group(1)
        for block in re.finditer(r"location ~ (\S+) \{([^}]*)\}", config)
        if "proxy_buffering off;" in block.group(2)
    ]
    app = make_app(str(tmp_path / "t.sqlite3"))
    streams = [
        rule.rule.replace("<", "").replace(">", "")
        for rule in app.url_map.iter_rules()
        if rule.rule.endswith("/events")
    ]
    assert len(streams) >= 3, streams  # the seats', the watching phones' and the TV's
    for path in streams:
        assert any(re.search(pattern, path) for pattern in unbuffered), path


def test_a_rate_limit_store_that_freezes_still_lets_requests_through(tmp_path):
    import signal
    import threading

    from tests.conftest import make_app
    from tests.redis_server import SERVERS

    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed (scripts/test installs it)")
    with running_redis(binary) as socket:
        app = make_app(
            str(tmp_path / "t.sqlite3"),
            RATELIMIT_ENABLED=True,
            RATELIMIT_STORAGE_URI=f"redis+unix://{socket}",
            REDIS_TIMEOUT_SECONDS=0.3,
        )
        options = app.config["RATELIMIT_STORAGE_OPTIONS"]  # the Redis client's waits
        assert options == {"socket_timeout": 0.3, "socket_connect_timeout": 0.3}
        client = app.test_client()
        assert client.get("/api/v1/rules").status_code == 200
        server = SERVERS[socket]
        server.send_signal(signal.SIGSTOP)  # the store answers nothing, holds the socket
        statuses: list[int] = []
        asking = threading.Thread(
            target=lambda: statuses.append(client.get("/api/v1/rules").status_code)
        )
        try:
            asking.start()
            asking.join(DEADLINE)  # a guard against a hang, not a measure
        finally:
            server.send_signal(signal.SIGCONT)
        asking.join()
    assert statuses == [200], "served without its limit once the store's read timed out"
