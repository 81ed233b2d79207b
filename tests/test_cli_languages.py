"""The command line speaks the terminal's language (LANGUAGE, LC_ALL, LC_MESSAGES, LANG):
English unless one with a catalogue is named; the pseudo-languages only with
SCOREKEEPER_LANGUAGES_PSEUDO=1."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper.languages.pseudo import accented
from scorekeeper.languages.terminal import terminal_language

ROOT = Path(__file__).resolve().parent.parent
REFUSAL = "--ladder plays two players, preset standard"
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def _refusal_line(**env: str) -> tuple[int, str]:
    """``simulate --ladder --players 3`` (refused before any game) under ``env``."""
    kept = {k: v for k, v in os.environ.items() if k not in LOCALE_VARIABLES}
    kept.pop("SCOREKEEPER_LANGUAGES_PSEUDO", None)
    kept["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-m", "scorekeeper", "simulate", "--ladder", "--players", "3"],
        capture_output=True,
        text=True,
        env=kept | env,
        cwd=ROOT,
        timeout=120,
    )
    return done.returncode, done.stderr.strip()


def test_the_refusal_is_english_without_a_language():
    assert _refusal_line() == (2, f"simulate: {REFUSAL}")


def test_the_refusal_is_in_the_pseudo_language_the_terminal_names():
    status, line = _refusal_line(LANGUAGE="en_XA", SCOREKEEPER_LANGUAGES_PSEUDO="1")
    assert status == 2 and line == f"simulate: {accented(REFUSAL)}"
    assert line != f"simulate: {REFUSAL}"


def test_a_pseudo_language_needs_its_switch():
    assert _refusal_line(LANGUAGE="en_XA") == (2, f"simulate: {REFUSAL}")


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({}, "en"),
        ({"LANG": "fr_FR.UTF-8"}, "fr"),
        ({"LANG": "pt_PT.UTF-8"}, "pt_BR"),
        ({"LANGUAGE": "xx:de", "LANG": "fr_FR.UTF-8"}, "de"),
        ({"LC_ALL": "C", "LANG": "fr_FR.UTF-8"}, "en"),
        ({"LC_MESSAGES": "es_ES", "LANG": "de_DE"}, "es"),
        ({"LANG": "it_IT.UTF-8"}, "en"),
        ({"LANGUAGE": "en_XA"}, "en"),
        ({"LANGUAGE": "en_XA", "SCOREKEEPER_LANGUAGES_PSEUDO": "1"}, "en_XA"),
    ],
)
def test_the_terminal_language(environ: dict[str, str], language: str):
    assert terminal_language(environ) == language
