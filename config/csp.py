"""Content-Security-Policy on every response: pages run scripts, load styles, images and
fonts, and open sockets from this site only, and run no inline script (every script is a
static file), so markup that slipped past escaping could run nothing."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase

from tables.middleware import response_middleware

POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        # Styles: our stylesheet, and the <style> elements plotly.js and htmx add from
        # their own (allowed) scripts. plotly.js does not work without them (its
        # modebar and hover labels; plotly.js issues 2355 and 7543), and a style cannot
        # run code, so inline styles stay allowed while inline scripts do not.
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",  # plotly's and Swagger UI's small icons are data: URLs
        "connect-src 'self'",  # 'self' covers ws: and wss: to this host (CSP level 3)
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


def _with_policy(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
    """Adds :data:`POLICY` unless a view set a policy of its own."""
    response.headers.setdefault("Content-Security-Policy", POLICY)
    return response


content_security_policy = response_middleware(_with_policy)
