"""GET /docs: the OpenAPI document (GET /v1/openapi.json) rendered for people, with Swagger UI.

Swagger UI's files are not in this repository and not fetched from a CDN: they come from
the pinned Python package flask-swagger-ui (a dependency, which ships Swagger UI's built
``dist`` folder, MIT-licensed) and are served from where pip installed it. The page's
Content-Security-Policy lets it load nothing from anywhere but this server.
"""
from __future__ import annotations

import json
from importlib import resources

from flask import Blueprint, Response, send_from_directory

POLICY = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
          "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
DOCUMENT = "/v1/openapi.json"
LICENSE = ("bitka's repository names no license yet: until its authors choose one, no license is granted.\n"
           "The API reference is at /docs; the repository's own manual is docs/api.md.\n")

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>bitka API reference</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png" sizes="32x32">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/start.js"></script>
</body>
</html>
"""

# Swagger UI's options: the document from this server, and no validator badge (which would
# send the document to validator.swagger.io).
OPTIONS = {"url": DOCUMENT, "dom_id": "#swagger-ui", "deepLinking": True, "validatorUrl": None,
           "defaultModelsExpandDepth": 0, "docExpansion": "list", "tryItOutEnabled": False}
START = f"window.ui = SwaggerUIBundle({json.dumps(OPTIONS)});\n"


def assets() -> str:
    """Where pip put Swagger UI's built files (the flask-swagger-ui package's ``dist``)."""
    return str(resources.files("flask_swagger_ui") / "dist")


def blueprint() -> Blueprint:
    bp = Blueprint("docs", __name__)

    @bp.get("/docs")
    def page():
        """The API reference: Swagger UI on this server's OpenAPI document."""
        return _local(Response(PAGE, mimetype="text/html"))

    @bp.get("/docs/start.js")
    def start():
        return _local(Response(START, mimetype="text/javascript"))

    @bp.get("/docs/assets/<path:name>")
    def asset(name: str):
        """One of Swagger UI's files, as the installed package has it (404 for anything else)."""
        return _local(send_from_directory(assets(), name, max_age=86400))

    @bp.get("/docs/license")
    def license_():
        """What the OpenAPI document's info.license points at while no license is chosen."""
        return Response(LICENSE, mimetype="text/plain")

    return bp


def _local(response: Response) -> Response:
    response.headers["Content-Security-Policy"] = POLICY
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response
