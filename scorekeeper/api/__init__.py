"""The JSON API (``/api/v1/``) and its OpenAPI document: with the command line, the only
web code that speaks the scoring contract's JSON."""
