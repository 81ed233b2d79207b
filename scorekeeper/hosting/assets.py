"""Upgrades without stale files: every static URL the app builds carries its file's content
hash (``/static/table.js?v=<12 hex>``), a file asked for with its current hash is cached for
a year (``immutable``), any other static request (no hash, or an old build's) is revalidated
each time (``no-cache``), and the service worker (``/sw.js``) is named by the build: its
caches' names and its precache list change whenever any static file or the package's
version does, so after an upgrade no phone keeps running yesterday's scripts. A page's ETag
carries the build too (``"<the view's tag>.<build>"``), so that a phone's copy of a page of
an older build, naming older files, is never answered 304; it carries the page's language
too (``"<the view's tag>@<language>.<build>"``), so that a copy in another language is never
answered 304 after the phone's language switch changed (``Vary: Accept-Language, Cookie``).

Hashes are read once per process per file (lazily, on the first URL or request that needs
them) and kept; an upgrade restarts the processes, which read the new files.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from flask import Flask, Response, current_app, request, url_for
from werkzeug.http import parse_etags, quote_etag
from werkzeug.security import safe_join

from ..languages.reader import chosen_language

YEAR = 31_536_000
"""Seconds a static file asked for by its current hash may be kept (a year, ``immutable``)."""
HASH_LENGTH = 12
"""Hex digits of a file's SHA-256 in its URL (``?v=``) and of the build id."""
BUILD_MARK = "__BUILD__"
"""What ``static/sw.js`` holds where the build id goes (a string literal's content)."""
BUILT_TAG = re.compile(rf"([^@]*)(?:@(\w+))?\.([0-9a-f]{{{HASH_LENGTH}}})")
"""A page's ETag with its language and build: the view's tag (none holds a dot or an
``@``), ``@`` and the page's language, a dot, the build id."""
FILES_MARK = "__FILES__"
"""What ``static/sw.js`` holds where the precache list goes (a JSON array of URLs)."""


class StaticHashes:
    """The content hashes of one app's static files (``HASH_LENGTH`` hex digits of SHA-256),
    each file read once (the first time it is asked for) and remembered by its path."""

    def __init__(self) -> None:
        self._known: dict[str, str | None] = {}
        self._builds: dict[str, str] = {}

    def of(self, folder: str, filename: str) -> str | None:
        """The hash of ``filename`` (relative, ``/``-separated) in the static ``folder``;
        None when it is no file there (or would be outside the folder)."""
        path = safe_join(folder, filename)
        if path is None:
            return None
        if path not in self._known:
            self._known[path] = _digest(Path(path)) if os.path.isfile(path) else None
        return self._known[path]

    def build(self, folder: str) -> str:
        """The build id of the static ``folder``: a hash of every file's name and hash and of
        the package's version, so that it changes with any of them."""
        if folder not in self._builds:
            whole = hashlib.sha256(_package_version().encode())
            for name in _files(Path(folder)):
                whole.update(f"\0{name}\0{self.of(folder, name)}".encode())
            self._builds[folder] = whole.hexdigest()[:HASH_LENGTH]
        return self._builds[folder]


def _digest(path: Path) -> str:
    """``HASH_LENGTH`` hex digits of the SHA-256 of the file at ``path``."""
    with path.open("rb") as file:
        return hashlib.file_digest(file, "sha256").hexdigest()[:HASH_LENGTH]


def _files(folder: Path) -> list[str]:
    """Every file under ``folder``, as sorted ``/``-separated relative names."""
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def _package_version() -> str:
    """The installed scorekeeper's version ("unknown" when it is not installed)."""
    try:
        return version("scorekeeper")
    except PackageNotFoundError:
        return "unknown"


def _hashes(app: Flask) -> StaticHashes:
    hashes: StaticHashes = app.extensions["static_hashes"]
    return hashes


def register_assets(app: Flask) -> None:
    """Give every ``url_for('static', filename=...)`` of ``app`` its file's hash (``v``);
    set each static response's ``Cache-Control``: a year and ``immutable`` when asked for
    with the file's current hash, else ``no-cache`` (and no ``Expires``); add the build to
    every page's ETag (and read it back from ``If-None-Match``)."""
    app.extensions["static_hashes"] = StaticHashes()

    @app.url_defaults
    def hashed_static_urls(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and "filename" in values and "v" not in values:
            digest = _hashes(app).of(app.static_folder or "", str(values["filename"]))
            if digest is not None:
                values["v"] = digest

    @app.before_request
    def pages_of_this_build_only() -> None:
        header = request.environ.get("HTTP_IF_NONE_MATCH")
        if header and request.endpoint != "static":
            build = _hashes(app).build(app.static_folder or "")
            language = chosen_language()
            request.environ["HTTP_IF_NONE_MATCH"] = _this_builds_tags(header, build, language)

    @app.after_request
    def cache_by_build(response: Response) -> Response:
        if request.endpoint == "static" and response.status_code in (200, 206, 304):
            _cache_control(app, response)
        elif response.mimetype == "text/html":
            tag, weak = response.get_etag()
            if tag is not None:
                build = _hashes(app).build(app.static_folder or "")
                response.set_etag(f"{tag}@{chosen_language()}.{build}", bool(weak))
            response.vary.update(("Accept-Language", "Cookie"))
        return response


def _this_builds_tags(header: str, build: str, language: str) -> str:
    """An ``If-None-Match`` header as the views know it: a page's tag of ``build`` and
    ``language`` without them (``"v7@de.<build>"`` is ``"v7"``), a page's tag of another
    build or language left out (that copy names another build's files, or is in another
    language: never current), any other tag (JSON's, a static file's) as it is; ``*``
    stays as it is. A page shown in its own language (a TV's) whose reader chose another
    is thus sent again in full: never stale."""
    tags = parse_etags(header)
    if tags.star_tag:
        return header
    kept = []
    for tag in sorted(tags.as_set(include_weak=True)):
        built = BUILT_TAG.fullmatch(tag)
        if built is None:
            kept.append(quote_etag(tag))
        elif built[3] == build and built[2] in (None, language):
            kept.append(quote_etag(built[1]))
    return ", ".join(kept)


def _cache_control(app: Flask, response: Response) -> None:
    """A year, ``immutable``, for a static file asked for with its current hash; ``no-cache``
    for any other (no hash: the manifest's icons; an old hash: a page of an older build)."""
    filename = str((request.view_args or {}).get("filename", ""))
    current = _hashes(app).of(app.static_folder or "", filename)
    response.headers.pop("Expires", None)  # Cache-Control alone says how long
    if current is not None and request.args.get("v") == current:
        response.cache_control.public = True
        response.cache_control.max_age = YEAR
        response.cache_control.immutable = True
    else:
        response.cache_control.public = False
        response.cache_control.max_age = None
        response.cache_control.no_cache = True


def service_worker(shell: Iterable[str]) -> bytes:
    """The service worker's script (``static/sw.js``) for the current app, its build id and
    precache list filled in: the build (:meth:`StaticHashes.build`) where ``sw.js`` says
    ``__BUILD__``, the hashed URLs of the ``shell`` files (names in the static folder) as a
    JSON array where it says ``__FILES__``. Needs a request context (URLs follow its root)."""
    folder = current_app.static_folder or ""
    script = Path(folder, "sw.js").read_text(encoding="utf-8")
    files = json.dumps([url_for("static", filename=name) for name in shell])
    build = _hashes(current_app).build(folder)
    return script.replace(BUILD_MARK, build).replace(FILES_MARK, files).encode()
