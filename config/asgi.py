"""ASGI entry point: Channels for websockets, Django's stock handler for HTTP.

In production uvicorn serves only the websockets from here (the proxy sends ``/ws/``
here, everything else to gunicorn and ``config.wsgi``); ``manage.py demo`` serves both.
With ``SIMULATE_INTERVAL`` set, demo tables deal inside this process (started by the
ASGI lifespan), so pushes on the in-memory channel layer reach this server's pages.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()  # sets Django up before anything below touches models

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from config.heap import FreezeHeapAtStartup  # noqa: E402
from tables.lifespan import ServerLifespan  # noqa: E402
from tables.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
# With a broker, Celery beat deals the demo tables (see settings.CELERY_BEAT_SCHEDULE).
application = ServerLifespan(application, interval=0 if settings.CELERY_BROKER_URL else settings.SIMULATE_INTERVAL)
application = FreezeHeapAtStartup(application)
