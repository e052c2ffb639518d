"""mnemo as a local service: the JSON HTTP API (app.py, openapi.py) and how it is started (run.py)."""
