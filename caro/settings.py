"""Django settings, all from environment variables (see README "Configuration").

DATABASE_URL  postgres://user:pass@host:port/name  (default: local PostgreSQL database "caro")
REDIS_URL     redis://host:port/db                 (channel layer and Celery broker)
SECRET_KEY    required when DEBUG is off
DEBUG         1/0 (default 0)
ALLOWED_HOSTS comma-separated (default "localhost,127.0.0.1" with DEBUG, else required)
CSRF_TRUSTED_ORIGINS comma-separated origins (scheme://host[:port]), for a site behind a proxy; the
              websocket Origin check accepts these and the request's own scheme and host
HTTPS         1/0: HSTS, SSL redirect, Secure cookies, trust X-Forwarded-Proto (default: on when
              DEBUG is off and ALLOWED_HOSTS names a host other than localhost/127.0.0.1/[::1];
              plain-HTTP local runs such as `dev.py run` are off by that default, or set HTTPS=0)
Limits (0 turns one off; see caro/rooms/limits.py): CARO_WS_PER_ADDRESS, CARO_WS_PER_ADDRESS_ROOM,
CARO_WS_PER_SESSION, CARO_WS_PER_SESSION_ROOM (websockets open at once), CARO_ROOMS_PER_MINUTE_PER_ADDRESS,
CARO_ROOMS_PER_MINUTE_PER_SESSION, CARO_RECORDS_PER_MINUTE_PER_ADDRESS, CARO_RECORDS_PER_MINUTE_PER_SESSION,
CARO_GUESTS_PER_MINUTE_PER_ADDRESS; CARO_ROOM_ABANDONED_HOURS
(a room where nobody ever moved is deleted after this long)
Offline play: CARO_SERVICE_WORKER (1/0, default 1; 0 retires the service worker in the browsers)
Accounts (README "Accounts"): EMAIL_HOST (unset: mail printed to the console), EMAIL_PORT,
EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS, DEFAULT_FROM_EMAIL; ACCOUNT_EMAIL_VERIFICATION
(optional/mandatory); GOOGLE_CLIENT_ID + GOOGLE_CLIENT_SECRET (both set: Google log-in)
"""

from pathlib import Path
import os

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _
from redis.maint_notifications import MaintNotificationsConfig

from caro.logformat import LINE_FORMAT

BASE_DIR = Path(__file__).resolve().parent.parent


def _env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def _env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = _env_bool("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG and not _env_bool("CARO_ALLOW_DEV_SECRET", False):
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"

#: Host names of a machine talking to itself: a site serving only these runs locally (plain HTTP).
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]")
ALLOWED_HOSTS = _env_list("ALLOWED_HOSTS", ",".join(LOOPBACK_HOSTS))
CSRF_TRUSTED_ORIGINS = _env_list("CSRF_TRUSTED_ORIGINS")

# HTTPS (manage.py check --deploy): secure by default when DEBUG is off and the site has a real host
# name; behind a TLS-terminating proxy that sets X-Forwarded-Proto (and overwrites a client's own).
HTTPS = _env_bool("HTTPS", not DEBUG and any(h not in LOOPBACK_HOSTS for h in ALLOWED_HOSTS))
#: HSTS lifetime when HTTPS is on, seconds (one year; HSTS_SECONDS overrides, 0 turns HSTS off).
HSTS_SECONDS_DEFAULT = 365 * 24 * 3600
if HTTPS:
    SECURE_SSL_REDIRECT = True
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # the container healthcheck talks plain HTTP inside
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = int(os.environ.get("HSTS_SECONDS", HSTS_SECONDS_DEFAULT))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = _env_bool("HSTS_INCLUDE_SUBDOMAINS", True)
    # The `preload` directive only consents to the browsers' preload list (joining it takes a
    # submission); HSTS_PRELOAD=0 for a domain whose subdomains cannot all serve HTTPS.
    SECURE_HSTS_PRELOAD = _env_bool("HSTS_PRELOAD", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "caro.apps.SiteConfig",
    "django_ratelimit",
    "accounts",  # before allauth: its templates and translations take precedence
    "allauth",
    "allauth.account",
    "allauth.socialaccount",
    "allauth.socialaccount.providers.google",
    "accounts.axes_app.LockoutConfig",  # django-axes, under a translated app name
    "caro.games",
    "caro.rooms",
    "caro.tutorials",
    "caro.offline",
    "ranking",
    "moderation",
    "lobby",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Every 429 says when to try again (Retry-After), whichever limit answered it.
    "caro.middleware.RetryAfterMiddleware",
    # A NUL byte in the address is a 404 before any view reaches the database.
    "caro.middleware.NulByteMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A visitor's name from the first page (a signed cookie, no row), and who is online now.
    "accounts.visitors.VisitorMiddleware",
    "lobby.middleware.OnlineMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A bare 405 from a POST-only view (opened by address) gets the site's translated page.
    "caro.middleware.NotAllowedPageMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # Guests are logged-in rows without an account: allauth's account pages send them to sign up.
    "accounts.middleware.GuestsAreAnonymousOnAccountPagesMiddleware",
    # Last, as django-axes asks: it turns a locked-out log-in attempt into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "caro.urls"
ASGI_APPLICATION = "caro.asgi.application"
WSGI_APPLICATION = None

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
                # A banned user's ban, or a fair-play seek bar and its time left, on every page.
                "moderation.context.restrictions",
                # A record page's address in the other language, for the language switch.
                "caro.records.context.language_urls",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/caro"),
        conn_max_age=0,  # Django docs: persistent connections are not safe under ASGI.
        # with the pool below, a connection is tested (one empty round trip) before it is lent,
        # so after a PostgreSQL restart or an idle kill the dead ones it holds cost no request a
        # 500 and no frame a `server_error`; when one fails, every idle one is tested at once
        # (caro.postgres, the backend below)
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's PostgreSQL backend with a pool that recovers about a second after PostgreSQL is back.
    DATABASES["default"]["ENGINE"] = "caro.postgres"
# psycopg 3's connection pool (Django 5.1+): each websocket frame and request borrows an open
# connection instead of opening one (a password handshake costs milliseconds per frame otherwise).
# DB_POOL_MAX_SIZE bounds the connections of one process (web, worker); 0 turns the pool off.
_pool_max = int(os.environ.get("DB_POOL_MAX_SIZE", "20"))
#: Seconds psycopg_pool keeps retrying one failed connection attempt (see below).
DB_POOL_RECONNECT_S = 2
#: Seconds a request waits for a pooled connection before its page answers 503 (caro.views).
DB_POOL_TIMEOUT_S = 10
if _pool_max > 0:
    from caro import postgres

    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1, "max_size": _pool_max, "timeout": DB_POOL_TIMEOUT_S,
        # psycopg_pool retries a failed connection with a doubling delay (1, 2, 4 ... 64 s) for
        # reconnect_timeout (default 300 s), and grows no further meanwhile: after PostgreSQL
        # restarts a pool could stay at one connection for a minute and lend none in 10 s. Given
        # up after 2 s (tries about 0, 1 and 2 s after the first failure), a new attempt starts at
        # once for a request waiting meanwhile (`reconnect_failed`) or for the next request: a
        # waiting request gets a connection about a second after PostgreSQL is back.
        "reconnect_timeout": DB_POOL_RECONNECT_S,
        "reconnect_failed": postgres.reconnect_failed,
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")

# redis-py 8 defaults (5 s socket timeout, 100 pooled connections) break channels-redis 4.3:
# idle consumers die after ~6 s and big bursts run out of connections (notes/stack.md).
# caro.layers.LocalFirstChannelLayer: channels_redis's pub/sub layer that delivers a group message
# to the sockets of the sending process directly and publishes to Redis only what another process
# subscribes to (and subscribes again, and tells the room sockets, after a Redis restart). With
# the pub/sub layer a group event is one PUBLISH, pushed to every web process subscribed to the
# group. The sorted-set layer (channels_redis.core) costs four sequential Redis round trips per
# message a web process receives, so 200 game-overs at once took 0.5-2 s to reach their sockets
# (bench/timeouts.py, docs/architecture.md). Nothing here needs what only that layer has (queued
# messages for a consumer that is not listening, per-channel capacity): a socket that misses an
# event resyncs with `sync`.
#: Options of every asyncio Redis client of the web process (the channel layer's, the socket
#: limits'): no CLIENT SETINFO (`driver_info` None) and no CLIENT MAINT_NOTIFICATIONS (redis-py 8,
#: RESP3) on a new connection. A Redis before 7.2 (the embedded one is 6.2) refuses both, and
#: redis-py keeps each refusal's traceback in a reference cycle: garbage for the web process's
#: collector (caro.gcpolicy; tests/integration/test_gc_policy.py counted ~12 objects a closed socket).
REDIS_CONNECTION_OPTIONS = {"driver_info": None, "maint_notifications_config": MaintNotificationsConfig(enabled=False)}

CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "caro.layers.LocalFirstChannelLayer",
        "CONFIG": {
            "hosts": [{"address": REDIS_URL, "socket_timeout": 10, "max_connections": 1000,
                       **REDIS_CONNECTION_OPTIONS}],
        },
    }
}

# The cache holds the HTTP rate-limit counters (django-ratelimit), shared by every web process.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": "caro",
        "OPTIONS": {"socket_timeout": 5, "socket_connect_timeout": 5},
    }
}
RATELIMIT_USE_CACHE = "default"
RATELIMIT_FAIL_OPEN = True  # a cache outage must not refuse everyone (caro/rooms/limits.py)
# django-ratelimit 4.1 lists only django-redis and memcached as supported; Django's own RedisCache
# increments atomically too (Redis INCR), which is all the library needs.
SILENCED_SYSTEM_CHECKS = ["django_ratelimit.W001"]

CELERY_BROKER_URL = REDIS_URL
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = "UTC"
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Countdown tasks longer than the visibility timeout run twice (notes/stack.md); our tasks are
# idempotent anyway, but keep it well above any move clock or absence grace period.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 6 * 3600}
# Surviving a Redis restart (issue 12; see caro/celery.py): a transport that lets the worker
# reconnect instead of dying, a consumer that retries within a second and for ever, and a sweep
# every second (each expires unless run within 5 s, so no backlog builds up while no worker runs).
if REDIS_URL.startswith(("redis://", "rediss://")):
    CELERY_BROKER_TRANSPORT = "caro.celery:RedisTransport"
CELERY_WORKER_CONSUMER = "caro.celery:Consumer"
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_BEAT_SCHEDULE = {
    "sweep-deadlines": {"task": "caro.games.tasks.sweep_deadlines", "schedule": 1.0, "options": {"expires": 5.0}},
    "purge-idle-guests": {"task": "accounts.tasks.purge_idle_guests", "schedule": 24 * 3600.0},
    "unlist-inactive-ratings": {"task": "ranking.tasks.unlist_inactive", "schedule": 3600.0},
    "sweep-presence": {"task": "caro.games.tasks.sweep_presence", "schedule": 5.0},
    # Matchmaking: a pairing pass over every choice, arrival checks, computer offers, waiting counts.
    "pairing-beat": {"task": "ranking.tasks.pairing_beat", "schedule": 1.0, "options": {"expires": 3.0}},
    "abandon-idle-games": {"task": "caro.games.tasks.abandon_idle_games", "schedule": 600.0},
    # Hourly, so a flood's rooms are gone (and their creators eligible for the guest purge) long
    # before the daily guest purge runs.
    "purge-abandoned-rooms": {"task": "caro.rooms.tasks.purge_abandoned_rooms", "schedule": 3600.0},
    # Who is here (online, playing, waiting) for the home page: counted here, read from the cache.
    "lobby-counts": {"task": "lobby.tasks.recount", "schedule": 2.0, "options": {"expires": 4.0}},
}
# One queue, `celery`: the computer plays in the player's browser (issue 26), no task thinks.

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "vi"
LANGUAGES = [("vi", "Tiếng Việt"), ("en", "English")]
# The second holds Vietnamese for django-allauth's own strings (it ships none); see accounts/allauth_locale.
# The third, Vietnamese for Django admin's and auth's strings its own catalogue lacks and for
# django-axes (none shipped); see caro/vendor_locale.
LOCALE_PATHS = [BASE_DIR / "locale", BASE_DIR / "accounts" / "allauth_locale", BASE_DIR / "caro" / "vendor_locale"]
USE_I18N = True
TIME_ZONE = "Asia/Ho_Chi_Minh"
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = DEBUG

SESSION_COOKIE_AGE = 60 * 60 * 24 * 365  # guests keep their name and seats for a year
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"

# Accounts (accounts/, README "Accounts"): django-allauth for sign-up, log-in, passwords and email;
# django-axes against password guessing. Guests are real users logged in by accounts.guests with
# ModelBackend, so it stays in the list; AxesStandaloneBackend goes first, as axes asks.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"
ACCOUNT_LOGOUT_REDIRECT_URL = "home"
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_FORMS = {"signup": "accounts.forms.SignupForm"}
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
# Optional: a new account plays at once; the confirmation mail proves the address (password reset).
ACCOUNT_EMAIL_VERIFICATION = os.environ.get("ACCOUNT_EMAIL_VERIFICATION", "optional")
ACCOUNT_CONFIRM_EMAIL_ON_GET = False
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_PRESERVE_USERNAME_CASING = True  # shown as typed; unique case-insensitively (accounts.names)
ACCOUNT_USERNAME_MIN_LENGTH = 3
ACCOUNT_USERNAME_VALIDATORS = "accounts.names.USERNAME_VALIDATORS"
# Guests are logged-in users: they must reach the log-in and sign-up pages (the sign-up turns the
# guest into the account, accounts.adapter).
ACCOUNT_AUTHENTICATED_LOGIN_REDIRECTS = False
ACCOUNT_SESSION_REMEMBER = True
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Caro] "
# Failed log-ins are counted by django-axes (below), which shows its own page; allauth's own
# counters (in the Redis cache, shared by every web process) stay on for the rest.
ACCOUNT_RATE_LIMITS = {"login_failed": False}
SOCIALACCOUNT_EMAIL_AUTHENTICATION = False
SOCIALACCOUNT_LOGIN_ON_GET = False
# Google log-in only when both keys are in the environment; otherwise no provider is configured
# and the pages show no social buttons.
GOOGLE_CLIENT_ID = os.environ.get("GOOGLE_CLIENT_ID", "")
GOOGLE_CLIENT_SECRET = os.environ.get("GOOGLE_CLIENT_SECRET", "")
SOCIALACCOUNT_PROVIDERS = {}
if GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET:
    SOCIALACCOUNT_PROVIDERS["google"] = {
        "APPS": [{"client_id": GOOGLE_CLIENT_ID, "secret": GOOGLE_CLIENT_SECRET, "key": ""}],
        "SCOPE": ["profile", "email"],
    }

#: Wrong passwords in a row (per name and address) before django-axes locks the log-in out.
ACCOUNT_LOCKOUT_FAILURES = 5
#: How long a lockout lasts, hours.
ACCOUNT_LOCKOUT_HOURS = 0.25
AXES_FAILURE_LIMIT = ACCOUNT_LOCKOUT_FAILURES
AXES_COOLOFF_TIME = ACCOUNT_LOCKOUT_HOURS
# Per name and address together: a café or school behind one address is not locked out by one
# person, and nobody can lock another person's account from elsewhere.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_USERNAME_CALLABLE = "accounts.lockout.attempted_name"
AXES_LOCKOUT_CALLABLE = "accounts.lockout.locked_out"
AXES_RESET_ON_SUCCESS = True
AXES_DISABLE_ACCESS_LOG = True  # every guest is a log-in: do not write a row for each
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"  # shared by every web process
AXES_VERBOSE = False

# Email: printed to the console in development; SMTP from the environment in production.
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Caro <no-reply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
if os.environ.get("EMAIL_HOST"):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = os.environ["EMAIL_HOST"]
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", 587))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = _env_bool("EMAIL_USE_TLS", True)
    EMAIL_TIMEOUT = 10
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"

# Log lines start with their time in UTC, ISO 8601 with "Z" (caro/logformat.py), not in TIME_ZONE.
# Celery's worker and beat use this configuration too (caro/celery.py, setup_logging).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"utc": {"()": "caro.logformat.UTCFormatter", "format": LINE_FORMAT}},
    "filters": {"no_client_error_traceback": {"()": "caro.logformat.NoClientErrorTraceback"},
                "refused_body_one_line": {"()": "caro.logformat.RefusedBodyOneLine"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "utc"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    "loggers": {"caro": {"level": os.environ.get("LOG_LEVEL", "INFO")},
                "django.request": {"filters": ["no_client_error_traceback"]},
                # A body over Django's limits (logged there, not on django.request): one line, no traceback.
                **{f"django.security.{name}": {"filters": ["refused_body_one_line"]}
                   for name in ("RequestDataTooBig", "TooManyFieldsSent", "TooManyFilesSent")}},
}

# Game defaults (milliseconds).
#: Where the admin lives ("admin/" by default; set ADMIN_URL, ending in "/", to move it off the guessable path).
ADMIN_URL = os.environ.get("ADMIN_URL", "admin/").strip("/") + "/"

#: Offline play (caro.offline): /sw.js serves the service worker when this is on and the static
#: files have a manifest (DEBUG off); CARO_SERVICE_WORKER=0 serves a worker that removes itself.
CARO_SERVICE_WORKER = _env_bool("CARO_SERVICE_WORKER", True)

CARO_FRIEND_MOVE_TIME_MS = int(os.environ.get("CARO_FRIEND_MOVE_TIME_MS", 60_000))

# Limits per address and per session (caro/rooms/limits.py); 0 turns a limit off. Many people can
# share one address (a school, a café, a mobile operator's NAT): the address limits are generous.
CARO_WS_PER_ADDRESS = int(os.environ.get("CARO_WS_PER_ADDRESS", 100))  # sockets open at once
CARO_WS_PER_ADDRESS_ROOM = int(os.environ.get("CARO_WS_PER_ADDRESS_ROOM", 20))  # in one room
CARO_WS_PER_SESSION = int(os.environ.get("CARO_WS_PER_SESSION", 30))  # one visitor (guest or account)
CARO_WS_PER_SESSION_ROOM = int(os.environ.get("CARO_WS_PER_SESSION_ROOM", 8))  # tabs in one room
CARO_ROOMS_PER_MINUTE_PER_ADDRESS = int(os.environ.get("CARO_ROOMS_PER_MINUTE_PER_ADDRESS", 30))
CARO_ROOMS_PER_MINUTE_PER_SESSION = int(os.environ.get("CARO_ROOMS_PER_MINUTE_PER_SESSION", 10))
CARO_GUESTS_PER_MINUTE_PER_ADDRESS = int(os.environ.get("CARO_GUESTS_PER_MINUTE_PER_ADDRESS", 30))
# Records of games played on the device (POST /api/local-games/): a browser back online sends every
# game it kept offline at once, so these are higher than the rooms' limits.
CARO_RECORDS_PER_MINUTE_PER_ADDRESS = int(os.environ.get("CARO_RECORDS_PER_MINUTE_PER_ADDRESS", 120))
CARO_RECORDS_PER_MINUTE_PER_SESSION = int(os.environ.get("CARO_RECORDS_PER_MINUTE_PER_SESSION", 60))
#: A room where nobody ever moved is deleted this long after it was created (caro/rooms/tasks.py).
CARO_ROOM_ABANDONED_HOURS = float(os.environ.get("CARO_ROOM_ABANDONED_HOURS", 24))
