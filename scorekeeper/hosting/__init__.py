"""Running the app for real: where phones find it (``addresses``), HTTPS with a local
authority (``certificates``, ``trust``), backups (``backup``), ``/healthz`` and the request
deadline (``health``), the environment's settings (``settings``), the serving loop that only
waits (``loop``), the schema brought up to date at start (``schema``) and the static files'
hashed URLs and the service worker's build (``assets``)."""
