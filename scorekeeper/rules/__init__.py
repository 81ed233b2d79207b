"""Settling arguments: the rules reference (``/rules``) and the checker (``/check``)."""
