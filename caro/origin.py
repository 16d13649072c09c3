"""The websocket Origin check: a socket is accepted only from a page of this site.

The browser's Origin (scheme, host and port) must equal one of the site's own origins:
- the origin of the request itself: `https` when the socket came over TLS (`wss`, or Daphne's
  `--proxy-headers` / SECURE_PROXY_SSL_HEADER saying so), else `http`, with the Host header, which
  must be one of ALLOWED_HOSTS; or
- one of CSRF_TRUSTED_ORIGINS (the same list Django's CSRF check trusts; `https://*.example.com`
  matches that domain's subdomains).
Default ports count as given (`http://example.com` is `http://example.com:80`). A socket without
an Origin header, or from any other origin, is refused before the consumer runs (HTTP 403).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

#: Ports a browser leaves out of an Origin or Host for each scheme.
DEFAULT_PORTS = {"http": 80, "https": 443}


def parse_origin(text: str) -> tuple[str, str, int] | None:
    """("https", "example.com", 443) for "https://Example.com", or None if it is not an origin."""
    try:
        parts = urlsplit(text.strip().lower())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/"):
        return None
    if parts.query or parts.fragment or parts.username is not None:
        return None
    return parts.scheme, parts.hostname, port or DEFAULT_PORTS[parts.scheme]


def _header(scope: dict, name: bytes) -> str | None:
    for key, value in scope.get("headers") or []:
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def _request_is_secure(scope: dict) -> bool:
    if scope.get("scheme") in ("wss", "https"):
        return True
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy:
        meta_name, expected = proxy
        header = meta_name.removeprefix("HTTP_").replace("_", "-").lower().encode()
        value = _header(scope, header)
        return value is not None and value.split(",")[0].strip() == expected
    return False


def site_origins(scope: dict) -> list[str]:
    """The origins a socket of this connection may come from (see the module docstring)."""
    origins = list(settings.CSRF_TRUSTED_ORIGINS)
    host = (_header(scope, b"host") or "").strip().lower()
    if host:
        domain, _port = split_domain_port(host)
        allowed = list(settings.ALLOWED_HOSTS)
        if settings.DEBUG and not allowed:
            allowed = ["localhost", "127.0.0.1", "[::1]"]
        if domain and validate_host(domain, allowed):
            origins.append(f"{'https' if _request_is_secure(scope) else 'http'}://{host}")
    return origins


def origin_allowed(scope: dict) -> bool:
    """True when the socket's Origin header is one of `site_origins(scope)`."""
    origin = _header(scope, b"origin")
    wanted = parse_origin(origin) if origin else None
    if wanted is None:
        return False
    scheme, hostname, port = wanted
    for pattern in site_origins(scope):
        if "://*." in pattern:  # CSRF_TRUSTED_ORIGINS' subdomain wildcard
            prefix, _, domain = pattern.partition("://*.")
            candidate = parse_origin(f"{prefix}://{domain}")
            if candidate and candidate[0] == scheme and candidate[2] == port and (
                    hostname.endswith("." + candidate[1])):
                return True
        elif parse_origin(pattern) == wanted:
            return True
    return False


class SiteOriginValidator:
    """ASGI middleware: websockets from another origin get a 403 before reaching `application`."""

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
