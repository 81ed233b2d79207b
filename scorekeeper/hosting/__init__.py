"""Running the app for real: where phones find it (``addresses``), HTTPS with a local
authority (``certificates``, ``trust``), backups (``backup``), ``/healthz`` and the request
deadline (``health``), the environment's settings (``settings``), the serving loop that only
waits (``loop``) and the schema brought up to date at start (``schema``)."""
