"""Settings from the environment, with a safe embedded default.

Nothing set: SQLite in ``var/``, the in-memory channel layer, DEBUG off, loopback
hosts only. ``DATABASE_URL`` selects the database (PostgreSQL in production);
``REDIS_URL`` selects channels-redis, the Redis cache and the Celery broker.
"""

import ipaddress
import os
import secrets
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from tables.game.advantage import ThresholdError, thresholds_parse
from tables.game.bets import BetType
from tables.game.operations_signals import OperationsRateError, OperationsRates, Rate
from tables.game.thresholds import Thresholds
from tables.operations.logs import log_format

BASE_DIR = Path(__file__).resolve().parent.parent


def env(name: str, default: str = "") -> str:
    """An environment variable; empty counts as unset (an empty DATABASE_URL would
    otherwise select Django's dummy backend)."""
    return os.environ.get(name) or default


def env_bool(name: str, default: bool = False) -> bool:
    return env(name, str(default)).lower() in ("1", "true", "yes", "on")


DATA_DIR = Path(env("DATA_DIR", str(BASE_DIR / "var")))
DATA_DIR.mkdir(parents=True, exist_ok=True)


def _secret_key() -> str:
    """SECRET_KEY; on the embedded default, a random key kept in DATA_DIR so sessions
    survive restarts. In production (``HTTPS=true``) it must be set: every process and
    every host must sign with one key, and a key written quietly to one host's disk
    is another host's stranger."""
    if key := env("SECRET_KEY"):
        if env_bool("HTTPS") and _placeholder(key):
            raise ImproperlyConfigured(
                "SECRET_KEY is a placeholder or too weak for production (HTTPS=true): at least 50 characters, "
                "15 of them different, not an example's; make one with: "
                "python3 -c 'import secrets; print(secrets.token_urlsafe(50))'"
            )
        return key
    if env_bool("HTTPS"):
        raise ImproperlyConfigured(
            "SECRET_KEY is not set: in production (HTTPS=true) every process and host needs the same key; "
            "make one with: python3 -c 'import secrets; print(secrets.token_urlsafe(50))'"
        )
    path = DATA_DIR / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


def _placeholder(key: str) -> bool:
    """A key no production should run with: deploy/systemd/env.example's placeholder, a
    "change me" of any kind, Django's insecure prefix, or one Django's deploy check calls
    weak (under 50 characters or under 5 distinct ones; 15 asked here)."""
    folded = key.casefold()
    return (
        "change-me" in folded
        or "changeme" in folded
        or key.startswith("django-insecure")
        or len(key) < 50
        or len(set(key)) < 15
    )


SECRET_KEY = _secret_key()
DEBUG = env_bool("DEBUG")
ALLOWED_HOSTS = env("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]").split(",")
CSRF_TRUSTED_ORIGINS = [o for o in env("CSRF_TRUSTED_ORIGINS").split(",") if o]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "ninja",  # serves Swagger UI from our static files, not a CDN
    "django_htmx",  # htmx and its websocket extension, from our static files
    "tables",
    "roads",
]

MIDDLEWARE = [
    # /healthz and /readyz, answered before anything else looks at the request (no
    # HTTPS redirect, no host check: a load balancer probes a server's own port).
    "tables.operations.probes.answer_probes",
    "tables.operations.requests.request_ids",  # every log line of a request names it
    # Compresses what leaves, static files included where they are not compressed
    # already (the embedded default serves them from the source folders; production's
    # collectstatic writes .br and .gz copies that WhiteNoise sends as they are).
    "django.middleware.gzip.GZipMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "config.csp.content_security_policy",
    "tables.api.core.json_method_not_allowed",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "tables.middleware.language_from_url",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"  # HTTP in production (gunicorn)
ASGI_APPLICATION = "config.asgi.application"  # websockets (uvicorn), and everything in the demo

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# SQLite: writers take the lock at BEGIN, so concurrent posts queue instead of failing
# with "database is locked" half way through a transaction.
SQLITE_OPTIONS = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}


def _database(url: str) -> dict[str, Any]:
    """The default database: SQLite in DATA_DIR, or whatever ``url`` names (any URL
    dj-database-url reads). A file test database for SQLite, so threads and a live
    server share it."""
    if not url:
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": DATA_DIR / "db.sqlite3",
            "TEST": {"NAME": str(DATA_DIR / "test-db.sqlite3")},
            "OPTIONS": dict(SQLITE_OPTIONS),
        }
    # Health checks: after a database restart, kept connections are dead; each is
    # checked before it serves a request.
    database: dict[str, Any] = dict(dj_database_url.parse(url, conn_max_age=0, conn_health_checks=True))
    if database["ENGINE"] == "django.db.backends.sqlite3":
        database["OPTIONS"] = dict(SQLITE_OPTIONS)
        database["TEST"] = {"NAME": str(DATA_DIR / "test-db.sqlite3")}
    # PostgreSQL: Django's pool (psycopg_pool), one per process, in the WSGI and the ASGI
    # server alike. Under ASGI each request runs on a thread of its own, and a kept
    # per-thread connection would serve no later request (Django's docs: no CONN_MAX_AGE
    # under ASGI). Under gunicorn's threads kept connections would do, but the pool
    # costs only about 25 µs of CPU a request more here: not worth a second
    # configuration. A request waits at most 3 s for a connection: with the database
    # down, the dealer hears 503 quickly instead of timing out. DB_POOL_MAX_SIZE=0: no
    # pool, a connection per request.
    pool_size = int(env("DB_POOL_MAX_SIZE", "20"))
    if database["ENGINE"] == "django.db.backends.postgresql" and pool_size:
        database.setdefault("OPTIONS", {})["pool"] = {"min_size": 1, "max_size": pool_size, "timeout": 3}
    return database


DATABASES = {"default": _database(env("DATABASE_URL"))}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env("REDIS_URL")
if REDIS_URL:
    # Pub/sub: a push goes to Redis once per group and each server process fans it out to
    # its own pages (the list-based layer would store one copy per page in Redis). Pushes
    # are best effort anyway: a page that missed one resyncs.
    # Past one Redis the pushes shard: CHANNEL_REDIS_URLS lists the Redis servers (comma
    # separated) and each group's channel is hashed to one of them (docs/production.md,
    # "Past one machine"). Every server process must list them in the same order.
    _channel_redis = [url.strip() for url in env("CHANNEL_REDIS_URLS", REDIS_URL).split(",") if url.strip()]
    CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer", "CONFIG": {"hosts": _channel_redis}}
    }
    # django-redis keeps its client, and one connection pool per process: Django's own
    # RedisCache builds a redis.Redis for every call (about 100 µs of CPU a call here).
    CACHES = {"default": {"BACKEND": "django_redis.cache.RedisCache", "LOCATION": REDIS_URL}}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# Behind a TLS-terminating reverse proxy (HTTPS=true): secure cookies, HSTS, redirects to
# https, and the proxy's X-Forwarded-Proto (and X-Real-IP, the client's address) trusted.
# `manage.py check --deploy` is clean.
HTTPS = env_bool("HTTPS")
if HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(env("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    CSRF_TRUSTED_ORIGINS += [f"https://{host}" for host in ALLOWED_HOSTS if not host.startswith("[")]

# Background work (tables/background/): Celery on Redis when REDIS_URL is set; otherwise
# a worker thread in this process (tables/background/runner.py), or inline when TASKS_INLINE is on
# (the tests: each task runs right after its transaction commits).
CELERY_BROKER_URL = REDIS_URL or None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True  # tasks are idempotent: a worker lost mid-task leaves it queued
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_WORKER_HIJACK_ROOT_LOGGER = False  # the workers log as the servers do (LOGGING below)
# A broker that is down must not hold up recording a round: fail fast, log, move on.
CELERY_BROKER_CONNECTION_TIMEOUT = 1
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}
TASKS_INLINE = env_bool("TASKS_INLINE")

# Reviewer statistics flag a shoe whose lowest p-value falls under this.
REVIEW_P_THRESHOLD = float(env("REVIEW_P_THRESHOLD", "0.01"))
# One export (CSV or JSON) holds at most this many rounds: about a month of 24 tables, some
# 20 s and 600 MB of CSV. A longer history is exported a date range at a time.
EXPORT_MAX_ROUNDS = int(env("EXPORT_MAX_ROUNDS", "1000000"))
# Heavy reports at once (tables/desk/capacity.py): round exports per reviewer and in all,
# and the reports over history (review, dealers) per reviewer and in all; past either, 429.
EXPORTS_PER_USER = int(env("EXPORTS_PER_USER", "1"))
EXPORTS_AT_ONCE = int(env("EXPORTS_AT_ONCE", "2"))
REPORTS_PER_USER = int(env("REPORTS_PER_USER", "2"))
REPORTS_AT_ONCE = int(env("REPORTS_AT_ONCE", "4"))
LOBBY_CARDS_SECONDS = float(env("LOBBY_CARDS_SECONDS", "60"))


# Shoe surveillance. An authenticated shoe's cards left after its last round are due to be
# revealed REVEAL_DUE_SECONDS after its end: a card still unrevealed is then not accounted
# for. The checks' thresholds (tables/game/thresholds.py, calibrated by
# benchmarks/shuffle_alarms.py): an alarm under its p-value, critical under ALARM_CRITICAL;
# a shoe's stretch found again in ALARM_STRETCH_HITS places in line is a reused shoe.
def _surveillance_settings() -> tuple[float, Thresholds]:
    def number(name: str, default: str, kind: type[float] | type[int] = float) -> Any:
        try:
            return kind(env(name, default))
        except ValueError:
            raise ImproperlyConfigured(f"{name} must be a number, not {env(name)!r}") from None

    return number("REVEAL_DUE_SECONDS", "3600"), Thresholds(
        composition=number("ALARM_COMPOSITION", "1e-8"),
        deck_order=number("ALARM_DECK_ORDER", "1e-8"),
        repeats=number("ALARM_REPEATS", "1e-8"),
        outcomes=number("ALARM_OUTCOMES", "1e-7"),
        streak=number("ALARM_STREAK", "1e-5"),
        critical=number("ALARM_CRITICAL", "1e-12"),
        stretch_hits=number("ALARM_STRETCH_HITS", "2", int),
    )


REVEAL_DUE_SECONDS, SURVEILLANCE_THRESHOLDS = _surveillance_settings()


# Advantage windows: a bet whose return on the cards left rises above its threshold (per
# unit staked; 0, the player's edge, by default) raises an alarm on the desk. One number
# for every bet, then bets of their own: ALARM_ADVANTAGE_RETURN="0,perfect_pair=0.02".
def _advantage_thresholds() -> dict[BetType, float]:
    try:
        return thresholds_parse(env("ALARM_ADVANTAGE_RETURN", "0"))
    except ThresholdError as error:
        raise ImproperlyConfigured(f"ALARM_ADVANTAGE_RETURN: {error}") from None


ADVANTAGE_THRESHOLDS = _advantage_thresholds()


# Dealer and operations signals (issue 35): a dealer's or a table's day past one of these
# rates raises an alarm; past OPS_CRITICAL_FACTOR times the rate, a critical one. Voids are
# per 100 rounds dealt, cancels per 100 rounds begun, refused posts per 100 posts; each
# alarms only once its count reaches its minimum. Card-authentication refusals: a day.
def _operations_rates() -> OperationsRates:
    def number(name: str, default: str, kind: type[float] | type[int] = float) -> Any:
        try:
            return kind(env(name, default))
        except ValueError:
            raise ImproperlyConfigured(f"{name} must be a number, not {env(name)!r}") from None

    try:
        return OperationsRates(
            voids=Rate(number("OPS_VOIDS_PER_100", "2"), number("OPS_VOIDS_MINIMUM", "3", int)),
            cancels=Rate(number("OPS_CANCELS_PER_100", "3"), number("OPS_CANCELS_MINIMUM", "3", int)),
            refusals=Rate(number("OPS_REFUSALS_PER_100", "10"), number("OPS_REFUSALS_MINIMUM", "10", int)),
            auth_refusals=Rate(number("OPS_AUTH_REFUSALS_A_DAY", "5")),
            critical_factor=number("OPS_CRITICAL_FACTOR", "3"),
        )
    except OperationsRateError as error:
        raise ImproperlyConfigured(f"dealer and operations signals: {error}") from None


OPERATIONS_RATES = _operations_rates()
# /readyz answers within this many seconds, a dependency that has not answered by then
# failed (tables/operations/probes.py).
READY_TIMEOUT = float(env("READY_TIMEOUT", "1.5"))
# GET /metrics answers these addresses (comma-separated, networks allowed), and anyone
# with "Authorization: Bearer <METRICS_TOKEN>" (tables/operations/exposition.py).
METRICS_ALLOWED_NETWORKS = [
    ipaddress.ip_network(network.strip(), strict=False)
    for network in env("METRICS_ALLOWED_ADDRESSES", "127.0.0.1,::1").split(",")
    if network.strip()
]
METRICS_TOKEN = env("METRICS_TOKEN", "")
# prometheus-client's multiprocess mode writes each process's numbers there: it must exist.
if env("PROMETHEUS_MULTIPROC_DIR"):
    Path(env("PROMETHEUS_MULTIPROC_DIR")).mkdir(parents=True, exist_ok=True)
# Rounds whose odds job was lost (a killed server, a broker that lost its queue) are found
# and computed this often: by beat with a broker, else by the ASGI server (and at its
# start). A round is taken as lost once it has waited this long.
ODDS_SWEEP_SECONDS = float(env("ODDS_SWEEP_SECONDS", "60"))

# Messages (the admin's "new ingest token" among them) are kept in the server-side session,
# never in a cookie: Django's cookie storage signs messages but does not encrypt them.
MESSAGE_STORAGE = "django.contrib.messages.storage.session.SessionStorage"

# The ingest API: a round's body is about 100 bytes; larger bodies get 413 unread. A
# client address with more than AUTH_FAILURES_LIMIT failed authentications in a window
# of AUTH_FAILURES_WINDOW seconds gets 429 (a right token is never refused).
API_MAX_BODY_BYTES = int(env("API_MAX_BODY_BYTES", "16384"))
# Starting an authenticated shoe (a hash of every card, 56 KiB for 8 decks) and revealing
# its cards (up to 16 decks of plaintexts of at most 256 characters) take larger bodies.
API_MAX_SHOE_BODY_BYTES = int(env("API_MAX_SHOE_BODY_BYTES", "262144"))
AUTH_FAILURES_LIMIT = int(env("AUTH_FAILURES_LIMIT", "20"))
AUTH_FAILURES_WINDOW = float(env("AUTH_FAILURES_WINDOW", "60"))
# The admin login: after LOGIN_FAILURES_LIMIT failed sign-ins from one address,
# LOGIN_FAILURES_PER_USERNAME_ADDRESS for one username from one address, or
# LOGIN_FAILURES_PER_USERNAME for one username from anywhere, in a window of
# LOGIN_FAILURES_WINDOW seconds, it answers 429 with Retry-After and hashes no password
# until the window ends. The username's own limit spares a browser that signed in as that
# user within LOGIN_KNOWN_BROWSER_DAYS (a signed cookie): a flood against a username from
# many addresses never locks its owner out of their own browser (tables/access/login.py).
# A password hash costs CPU on the threads that also record rounds: all processes
# together hash at most LOGIN_HASHES_PER_SECOND passwords a second, a process at most
# LOGIN_HASHING_AT_ONCE at a time, and a sign-in that cannot start within
# LOGIN_HASHING_WAIT seconds is answered 429 at once (a flood from many addresses then
# costs a fraction of a core, and holds no thread that records rounds).
LOGIN_FAILURES_LIMIT = int(env("LOGIN_FAILURES_LIMIT", "10"))
LOGIN_FAILURES_PER_USERNAME = int(env("LOGIN_FAILURES_PER_USERNAME", "20"))
LOGIN_FAILURES_PER_USERNAME_ADDRESS = int(env("LOGIN_FAILURES_PER_USERNAME_ADDRESS", "5"))
LOGIN_KNOWN_BROWSER_DAYS = int(env("LOGIN_KNOWN_BROWSER_DAYS", "90"))
LOGIN_FAILURES_WINDOW = float(env("LOGIN_FAILURES_WINDOW", "900"))
LOGIN_HASHES_PER_SECOND = int(env("LOGIN_HASHES_PER_SECOND", "4"))
LOGIN_HASHING_AT_ONCE = int(env("LOGIN_HASHING_AT_ONCE", "1"))
LOGIN_HASHING_WAIT = float(env("LOGIN_HASHING_WAIT", "0.2"))

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# The languages of baccarat's players: a page's comes from ?lang= (screens without a
# keyboard), then Django's language cookie (the switch on every page), then the browser's
# Accept-Language. The API stays English. Catalogues: tables/locale (the pages' templates
# and the tables app) and roads/locale, compiled .mo files shipped so no install needs gettext.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("zh-hans", "简体中文"),
    ("zh-hant", "繁體中文"),
    ("ko", "한국어"),
    ("vi", "Tiếng Việt"),
    ("th", "ไทย"),
]
# The product's words, then the admin's that Django's own catalogues lack (Thai, Vietnamese, Chinese).
LOCALE_PATHS = [BASE_DIR / "tables" / "locale", BASE_DIR / "tables" / "desk" / "admin" / "locale"]
FORMAT_MODULE_PATH = ["config.formats"]  # dates and times in each language, to the second
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = env("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
]
STATIC_ROOT = DATA_DIR / "staticfiles"
STATIC_ROOT.mkdir(exist_ok=True)  # WhiteNoise warns on a missing root
# Production sets STATIC_MANIFEST=true and runs collectstatic: hashed names, cached
# forever, compressed. The embedded default serves straight from the source folders
# (WHITENOISE_USE_FINDERS), so it needs no collectstatic step.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if env_bool("STATIC_MANIFEST")
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = not env_bool("STATIC_MANIFEST")

# Seconds between two live pushes of one table from one process: a burst of changes
# waits out the interval and goes as one push of the latest state (0 = every change).
PUSH_INTERVAL = float(env("PUSH_INTERVAL", "1"))
# What one page may cost: a resync (the page asks what it missed) at most once per
# RESYNC_INTERVAL seconds; a page that takes no push for PUSH_SEND_TIMEOUT seconds
# is dropped (it reconnects and resyncs), so pushes never pile up waiting for it.
RESYNC_INTERVAL = float(env("RESYNC_INTERVAL", "1"))
# One client address gets at most RESYNC_BURST whole answers at once, then
# RESYNC_PER_SECOND a second, however many sockets it opens; beyond, a page is told when
# to ask again (tables/live/resyncs.py). A casino's wifi puts many phones behind one address.
RESYNC_BURST = int(env("RESYNC_BURST", "20"))
# Open websockets one client address may hold in each server process (tables/live/limits.py).
WS_MAX_PER_ADDRESS = int(env("WS_MAX_PER_ADDRESS", "1000"))
RESYNC_PER_SECOND = float(env("RESYNC_PER_SECOND", "5"))
PUSH_SEND_TIMEOUT = float(env("PUSH_SEND_TIMEOUT", "10"))

# Demo tables dealt inside the server process (seconds between rounds; 0 = off).
# With a broker, beat deals them instead (every ASGI process would deal otherwise).
SIMULATE_INTERVAL = float(env("SIMULATE_INTERVAL", "0"))
# Alarms sent to the casino's webhooks (docs/webhooks.md): each POST waits at most
# WEBHOOK_TIMEOUT seconds; a failed one is tried again after WEBHOOK_RETRY_SECONDS,
# doubling up to WEBHOOK_RETRY_MAX_SECONDS (with jitter), until WEBHOOK_GIVE_UP_SECONDS
# after the alarm (3 days: a receiver down for a weekend loses nothing). Deliveries
# whose retry was lost (a restart) are found every WEBHOOK_SWEEP_SECONDS.
WEBHOOK_TIMEOUT = float(env("WEBHOOK_TIMEOUT", "5"))  # the whole attempt's deadline, not a read's
WEBHOOK_RETRY_SECONDS = float(env("WEBHOOK_RETRY_SECONDS", "10"))
WEBHOOK_RETRY_MAX_SECONDS = float(env("WEBHOOK_RETRY_MAX_SECONDS", "600"))
WEBHOOK_GIVE_UP_SECONDS = float(env("WEBHOOK_GIVE_UP_SECONDS", str(3 * 24 * 3600)))
WEBHOOK_SWEEP_SECONDS = float(env("WEBHOOK_SWEEP_SECONDS", "60"))
# A webhook whose receiver failed WEBHOOK_BREAKER_FAILURES attempts in a row is paused:
# one attempt after WEBHOOK_BREAKER_PAUSE_SECONDS, doubling while it keeps failing, up to
# WEBHOOK_RETRY_MAX_SECONDS (tables/surveillance/breaker.py).
WEBHOOK_BREAKER_FAILURES = int(env("WEBHOOK_BREAKER_FAILURES", "5"))
WEBHOOK_BREAKER_PAUSE_SECONDS = float(env("WEBHOOK_BREAKER_PAUSE_SECONDS", "60"))
# Deliveries have a queue of their own, consumed by the Procfile's `webhooks` worker: a
# slow receiver never holds a worker that computes odds or checks shoes.
WEBHOOK_QUEUE = "webhooks"
CELERY_TASK_ROUTES = {
    "tables.tasks.webhook_delivery_attempt": {"queue": WEBHOOK_QUEUE},
    "tables.tasks.webhook_deliveries_due_queue": {"queue": WEBHOOK_QUEUE},
}
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    "lobby-cards": {"task": "tables.tasks.lobby_cards_render", "schedule": LOBBY_CARDS_SECONDS},
    "odds-sweep": {"task": "tables.tasks.rounds_without_odds_compute", "schedule": ODDS_SWEEP_SECONDS},
    "webhook-sweep": {"task": "tables.tasks.webhook_deliveries_due_queue", "schedule": WEBHOOK_SWEEP_SECONDS},
}
if SIMULATE_INTERVAL > 0 and CELERY_BROKER_URL:
    CELERY_BEAT_SCHEDULE["simulate-tables"] = {"task": "tables.tasks.simulate_tables", "schedule": SIMULATE_INTERVAL}

# One JSON object a line in production (HTTPS=true), readable text otherwise; LOG_FORMAT
# says which (json, text). Each line names its request, table, shoe and round where known.
try:
    LOG_FORMAT = log_format(os.environ)
except ValueError as error:
    raise ImproperlyConfigured(str(error)) from None
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # A dependency that is down: one line every few seconds, not a traceback a request.
    # The load balancer's probes: no access line, no warning for a 503 (operations/logs.py).
    "filters": {
        "outages": {"()": "config.outages.OneLineAnOutage"},
        "probes": {"()": "tables.operations.logs.ProbesQuiet"},
        "about": {"()": "tables.operations.logs.About"},
    },
    "formatters": {
        "json": {"()": "tables.operations.logs.JsonLines"},
        "text": {"()": "tables.operations.logs.Text"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["outages", "probes", "about"],
            "formatter": LOG_FORMAT,
        }
    },
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", "INFO")},
    # uvicorn's own lines and access lines go through the same handler: its filters and
    # format apply to them (gunicorn's: config/gunicorn.py).
    "loggers": {name: {"handlers": ["console"], "propagate": False} for name in ("uvicorn", "uvicorn.access")},
}
