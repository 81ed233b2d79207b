"""The process caches of ``/play``, all made one way: a :class:`BoundedCache`, a bounded
keyed cache that keeps the latest entries used. Never the truth: every key names what it
holds at one version (a game's slug and version, a wake-up's number, a template and its
context), so a new version is never served from an older entry; any process makes the
entry again from the database.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

Key = TypeVar("Key", bound=Hashable)
Value = TypeVar("Value")


def _always(_value: object) -> bool:
    return True


class _Missing:
    """Nothing kept for a key (a value may be None)."""


MISSING = _Missing()


class BoundedCache(Generic[Key, Value]):
    """The ``bound`` latest values made, by key (the least recently used dropped first).
    ``locks`` > 0: a key's value is made by one thread at a time (that many striped
    locks), so two requests for one key make it once. A value is shared: whoever gets
    one only reads it."""

    def __init__(self, bound: int, locks: int = 0) -> None:
        self.bound = bound
        self._lock = threading.Lock()
        self._kept: OrderedDict[Key, Value] = OrderedDict()
        self._making = [threading.Lock() for _ in range(locks)]

    def _found(self, key: Key, fresh: Callable[[Value], bool]) -> Value | _Missing:
        with self._lock:
            if key in self._kept and fresh(self._kept[key]):
                self._kept.move_to_end(key)
                return self._kept[key]
        return MISSING

    def _keep(self, key: Key, value: Value) -> None:
        with self._lock:
            self._kept[key] = value
            self._kept.move_to_end(key)
            while len(self._kept) > self.bound:
                self._kept.popitem(last=False)

    def get(
        self, key: Key, make: Callable[[], Value], fresh: Callable[[Value], bool] = _always
    ) -> Value:
        """The value kept for ``key`` when ``fresh`` says it still serves, else
        ``make()``'s, kept for the next ask."""
        found = self._found(key, fresh)
        if not isinstance(found, _Missing):
            return found
        if not self._making:
            return self._made(key, make)
        with self._making[hash(key) % len(self._making)]:
            found = self._found(key, fresh)
            return self._made(key, make) if isinstance(found, _Missing) else found

    def _made(self, key: Key, make: Callable[[], Value]) -> Value:
        made = make()
        self._keep(key, made)
        return made

    def cache_clear(self) -> None:
        """Forget every value (a test's fresh start)."""
        with self._lock:
            self._kept.clear()

    def __len__(self) -> int:
        return len(self._kept)


class Memo(Generic[Key, Value]):
    """The function ``make`` of one hashable key, each value made once per process and
    kept in a :class:`BoundedCache` of ``bound`` (``functools.lru_cache`` made the
    :class:`BoundedCache` way)."""

    def __init__(self, make: Callable[[Key], Value], bound: int) -> None:
        self.make = make
        self.cache: BoundedCache[Key, Value] = BoundedCache(bound)

    def __call__(self, key: Key) -> Value:
        """``make(key)``, made once."""
        return self.cache.get(key, lambda: self.make(key))

    def cache_clear(self) -> None:
        """Forget every value (a test's fresh start)."""
        self.cache.cache_clear()
