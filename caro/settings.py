"""Django settings, all from environment variables (see README "Configuration").

DATABASE_URL  postgres://user:pass@host:port/name  (default: local PostgreSQL database "caro")
REDIS_URL     redis://host:port/db                 (channel layer and Celery broker)
SECRET_KEY    required when DEBUG is off
DEBUG         1/0 (default 0)
ALLOWED_HOSTS comma-separated (default "localhost,127.0.0.1" with DEBUG, else required)
CSRF_TRUSTED_ORIGINS comma-separated origins, for a site behind a proxy
"""

from pathlib import Path
import os

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

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

ALLOWED_HOSTS = _env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = _env_list("CSRF_TRUSTED_ORIGINS")

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
    "accounts",
    "caro.games",
    "caro.rooms",
    "caro.tutorials",
    "ranking",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
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
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/caro"),
        conn_max_age=0,  # Django docs: persistent connections are not safe under ASGI.
        conn_health_checks=False,  # not allowed with the pool below, which checks connections itself
    )
}
# psycopg 3's connection pool (Django 5.1+): each websocket frame and request borrows an open
# connection instead of opening one (a password handshake costs milliseconds per frame otherwise).
# DB_POOL_MAX_SIZE bounds the connections of one process (web, worker); 0 turns the pool off.
_pool_max = int(os.environ.get("DB_POOL_MAX_SIZE", "20"))
if _pool_max > 0:
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1, "max_size": _pool_max, "timeout": 10,
    }
else:
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")

# redis-py 8 defaults (5 s socket timeout, 100 pooled connections) break channels-redis 4.3:
# idle consumers die after ~6 s and big bursts run out of connections (notes/stack.md).
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {
            "hosts": [{"address": REDIS_URL, "socket_timeout": 10, "max_connections": 1000}],
            "capacity": 500,
            "expiry": 30,
        },
    }
}

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
    "sweep-bot-turns": {"task": "caro.games.tasks.sweep_bot_turns", "schedule": 5.0},
    "sweep-presence": {"task": "caro.games.tasks.sweep_presence", "schedule": 5.0},
    "abandon-idle-games": {"task": "caro.games.tasks.abandon_idle_games", "schedule": 600.0},
}
# The computer's moves (up to CARO_BOT_BUDGET_MS of thinking each) have their own queue, so they
# never delay the clock tasks; a worker consumes both (`-Q celery,bots`), or run one per queue.
CELERY_TASK_ROUTES = {"caro.games.tasks.play_bot_move": {"queue": "bots"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "vi"
LANGUAGES = [("vi", "Tiếng Việt"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
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
LOGIN_URL = "/admin/login/"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    "loggers": {"caro": {"level": os.environ.get("LOG_LEVEL", "INFO")}},
}

# Game defaults (milliseconds).
CARO_FRIEND_MOVE_TIME_MS = int(os.environ.get("CARO_FRIEND_MOVE_TIME_MS", 60_000))
CARO_BOT_BUDGET_MS = int(os.environ.get("CARO_BOT_BUDGET_MS", 1_000))
