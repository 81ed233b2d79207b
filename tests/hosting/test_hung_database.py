"""Issue 34: a PostgreSQL that stops answering (its processes stopped, connections open)
gives 503s with the reason, not hangs: ``/healthz``, pages and saves, under ``serve``'s
gevent workers; when it answers again the app serves again, and nothing was lost or
half-written. The server is the real ``scorekeeper serve``; the test waits on answers
(each bounded, so a hang fails the test), never on a clock."""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import signal
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.hosting.servers import one_web_worker

ANSWER_WITHIN = 60
"""Seconds the test's client waits for an answer: far beyond the app's deadline, so a
hang (no answer at all) fails the test, while a slow machine does not."""


class Phone:
    """A client with its own cookies (its session)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()),
            _NoRedirect(),
        )

    def send(self, path: str, data: bytes | None = None, kind: str = "") -> tuple[int, bytes]:
        headers = {"Content-Type": kind} if kind else {}
        asked = urllib.request.Request(self.base + path, data=data, headers=headers)
        try:
            with self.opener.open(asked, timeout=ANSWER_WITHIN) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any) -> None:
        return None


def _postmaster(url: str) -> int:
    folder = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)["host"][0]
    pid_file = next(Path(folder).glob("data/postmaster.pid"))
    return int(pid_file.read_text().split()[0])


@contextmanager
def frozen(postmaster: int) -> Iterator[None]:
    """Every process of the PostgreSQL server stopped (SIGSTOP): its sockets stay open
    and nothing answers; started again (SIGCONT) at the end."""
    children = subprocess.run(
        ["pgrep", "-P", str(postmaster)], capture_output=True, text=True
    ).stdout.split()
    pids = [postmaster, *(int(p) for p in children)]
    for pid in pids:
        os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        for pid in pids:
            os.kill(pid, signal.SIGCONT)


def _new_game(phone: Phone) -> str:
    page = phone.send("/play")[1].decode()
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert token is not None
    form = {"csrf_token": token.group(1), "name": "Sam", "preset": "standard", "bot_0": "casual"}
    form |= {"seed": "5"}  # the person moves first: no bot job needed
    status, _ = phone.send(
        "/play", urllib.parse.urlencode(form).encode(), "application/x-www-form-urlencoded"
    )
    assert status == 302
    listed = phone.send("/play")[1].decode()
    found = re.search(r'href="/play/([A-Za-z0-9_-]{20,})"', listed)
    assert found is not None
    return found.group(1)


def _state(phone: Phone, slug: str) -> dict[str, Any]:
    status, body = phone.send(f"/play/{slug}/state.json")
    assert status == 200
    return dict(json.loads(body))


def test_a_frozen_postgresql_gives_503s_then_serving_again(postgres_url, tmp_path) -> None:
    with one_web_worker(tmp_path, postgres_url) as base:
        phone = Phone(base)
        slug = _new_game(phone)
        before = _state(phone, slug)
        move = json.dumps({"version": before["version"], "action": before["legal"][0]}).encode()
        with frozen(_postmaster(postgres_url)):
            health = phone.send("/healthz")
            assert health[0] == 503
            assert json.loads(health[1])["database"].startswith("not answering")
            page = phone.send(f"/play/{slug}")
            assert page[0] == 503 and b"Try again" in page[1]
            saved = phone.send(f"/play/{slug}/move.json", move, "application/json")
            assert saved[0] == 503 and b"waiting for its database" in saved[1]
        for _ in range(600):  # serving again once it answers (bounded: never a measure)
            if phone.send("/healthz")[0] == 200:
                break
            time.sleep(0.1)
        assert _state(phone, slug) == before  # the refused save changed nothing
        saved = phone.send(f"/play/{slug}/move.json", move, "application/json")
        assert saved[0] == 200 and json.loads(saved[1])["version"] == before["version"] + 1
        assert phone.send(f"/play/{slug}")[0] == 200
