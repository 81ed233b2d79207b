"""Issue 36, "Operate it for real": a stop that does not wait for the event streams. The
real ``scorekeeper serve`` (one gevent web worker and the queue's consumer beside it) with
a phone's stream open is told to stop (SIGTERM, as ``docker stop`` does): the stream gets
a ``retry:`` hint and ends, and the server, consumer included, is gone. Every wait is a
bound against a hang (far beyond the 10 s a stop may take), never a measure."""

from __future__ import annotations

import http.client
import http.cookiejar
import os
import re
import signal
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from scorekeeper.live.streams import CLOSED_RETRY_MS
from tests.hosting.servers import free_port, serving

GUARD = 60
"""Seconds the test waits for the stream's end and the server's exit: a bound against a
hang (gunicorn's old 30 s wait passed it too, but without the retry line)."""


def _phone() -> urllib.request.OpenerDirector:
    jar = http.cookiejar.CookieJar()
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))


def _new_game(phone: urllib.request.OpenerDirector, base: str) -> str:
    """A digital game against a bot, made through the real form; its slug."""
    with phone.open(f"{base}/play", timeout=GUARD) as answer:
        page = answer.read().decode()
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert token is not None
    form = {"csrf_token": token.group(1), "name": "Sam", "preset": "standard"}
    form |= {"bot_0": "casual", "seed": "5"}  # the person moves first
    with phone.open(f"{base}/play", urllib.parse.urlencode(form).encode(), GUARD) as answer:
        assert answer.status == 200  # the redirect followed: the game's page
    with phone.open(f"{base}/play", timeout=GUARD) as answer:
        listed = answer.read().decode()
    found = re.search(r'href="/play/([A-Za-z0-9_-]{20,})"', listed)
    assert found is not None
    return found.group(1)


def _rest(stream: http.client.HTTPResponse) -> str:
    """What the stream sends until its end; ``"cut: ..."`` appended when the connection
    was cut without the response's end (a worker killed)."""
    lines = []
    try:
        while line := stream.readline():
            lines.append(line.decode())
    except http.client.IncompleteRead as cut:
        lines.append(f"cut: {cut!r}")
    return "".join(lines)


def _group_is_gone(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.mark.parametrize("told", ["group", "master"])
def test_sigterm_ends_the_open_streams_with_a_retry_and_the_server_stops(
    tmp_path: Path, told: str
) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
    env.pop("DATABASE_URL", None)
    env |= {"SCOREKEEPER_DATA": str(tmp_path / "data"), "SCOREKEEPER_JOB_PROCESSES": "1"}
    env |= {"SCOREKEEPER_PLAY_REVIEW": "off"}
    command = [sys.executable, "-m", "scorekeeper", "serve", "--host", "127.0.0.1"]
    command += ["--port", str(port), "--workers", "1"]
    base = f"http://127.0.0.1:{port}"
    with serving(command, base, env, tmp_path, tmp_path / "serve.log") as server:
        phone = _phone()
        slug = _new_game(phone, base)
        with phone.open(f"{base}/play/{slug}/events", timeout=GUARD) as stream:
            assert stream.headers["Content-Type"].startswith("text/event-stream")
            heard = [stream.readline()]
            while not heard[-1].startswith(b"event: version"):  # served: its first event
                assert heard[-1], f"the stream ended before its first event: {heard}"
                heard.append(stream.readline())
            if told == "group":  # a terminal's or a test's stop: every process told
                os.killpg(server.pid, signal.SIGTERM)
            else:  # docker stop: only the container's first process, gunicorn's master
                server.send_signal(signal.SIGTERM)
            after = _rest(stream)
        assert after.endswith(f"retry: {CLOSED_RETRY_MS}\n\n"), after[-300:]
        try:
            server.wait(timeout=GUARD)
        except subprocess.TimeoutExpired:
            pytest.fail(f"serve still running {GUARD} s after SIGTERM")
        assert server.returncode == 0
        for _ in range(GUARD * 10):  # the consumer beside it stopped too (bounded)
            if _group_is_gone(server.pid):
                break
            time.sleep(0.1)
        assert _group_is_gone(server.pid)
