"""One settings file, driven by environment variables that fail loudly on bad values."""

import os
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from whitenoise.compress import Compressor

from fleetbuilder.config import (
    ConfigError,
    envbool,
    envchoice,
    envint,
    envlist,
    secret_key_problem,
)

BASE_DIR = Path(__file__).resolve().parent.parent


DEBUG = envbool("DEBUG", "false")
SECRET_KEY = os.environ.get("SECRET_KEY", "")
# Without SECRET_KEY, the key kept in SECRET_KEY_FILE is used: by default var/secret_key, a random
# key scripts/setup.sh makes once per machine, so commands run as written in the README. Several
# machines serving one site must share one key: set SECRET_KEY (or point SECRET_KEY_FILE at it).
SECRET_KEY_FILE = Path(os.environ.get("SECRET_KEY_FILE") or BASE_DIR / "var" / "secret_key")
if not SECRET_KEY and SECRET_KEY_FILE.is_file():
    SECRET_KEY = SECRET_KEY_FILE.read_text().strip()
# Sessions, CSRF tokens and password-reset links are signed with it: without DEBUG a missing or
# guessable key stops start-up. Only a development server (DEBUG=true) may run without one.
if DEBUG and not SECRET_KEY:
    SECRET_KEY = "insecure-local-development-key-change-me"
elif not DEBUG and (_problem := secret_key_problem(SECRET_KEY)):
    raise ConfigError(
        f"SECRET_KEY {_problem}: set it to 50 or more random characters "
        "(python -c 'import secrets; print(secrets.token_urlsafe(50))')"
    )

ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1],testserver")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")

# HTTPS=true: the site is served over TLS (usually by a proxy in front of gunicorn that sets
# X-Forwarded-Proto; it must overwrite any such header a client sends). Browsers are told to use
# HTTPS for a year (HSTS, with subdomains; HSTS_PRELOAD=false leaves the preload list alone),
# plain HTTP is redirected, and cookies are only sent over TLS.
HTTPS = envbool("HTTPS", "false")
if HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # load balancers probe over plain HTTP
    SECURE_HSTS_SECONDS = 365 * 24 * 60 * 60
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = envbool("HSTS_PRELOAD", "true")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "fleetbuilder.catalog",
    "fleetbuilder.fleets",
    "fleetbuilder.gunnery",
    "fleetbuilder.accounts",
    "fleetbuilder.cards",
    "fleetbuilder.simulator",
    "fleetbuilder.balance",
    "fleetbuilder.editions",  # published catalogues: changelog, feed
    "fleetbuilder.events",  # club nights and tournaments: lists collected, hidden, revealed
    "fleetbuilder.analysis",
    "fleetbuilder.battlepack",
    "fleetbuilder.api",
    "fleetbuilder.ops",  # health checks, request logs, backups (no models)
    "ninja",  # its Swagger UI files come from our static files, not a CDN
    "axes",
]

MIDDLEWARE = [
    "fleetbuilder.ops.middleware.RequestLogMiddleware",
    # a Redis outage that reaches a view's caller: a 503 page in words
    "fleetbuilder.sharedstate.SharedStateDownMiddleware",
    # an answer given before the body was read (a 413) reaches the client: the rest of the
    # body is read first, so the connection is not reset under it
    "fleetbuilder.ops.uploads.DrainUnreadBodyMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # gzip for pages and JSON, with Django's BREACH mitigation; below
    # WhiteNoise, whose static files are compressed ahead of time
    "fleetbuilder.ops.middleware.CompressTextMiddleware",
    "fleetbuilder.text.AddressTextMiddleware",  # a NUL in an address is a 400
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "fleetbuilder.accounts.sessions.KeepSessionsMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "fleetbuilder.urls"
WSGI_APPLICATION = "fleetbuilder.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "fleetbuilder.nav.nav",  # the navigation's current page
                # a catalogue that is no published edition is shown as such
                "fleetbuilder.catalog.editions.development_state",
            ],
        },
    },
]

_DATABASE_URL = os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}")
try:
    DATABASES = {
        "default": dj_database_url.parse(_DATABASE_URL, conn_max_age=envint("DB_CONN_MAX_AGE", "0"))
    }
except ValueError as exc:
    # The first sentence of dj-database-url's message (the rest lists every known scheme).
    raise ConfigError(
        f"DATABASE_URL is not a database address: {str(exc).split('. ')[0]}"
    ) from None
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several processes (gunicorn workers, simulator workers) share one file: WAL lets readers
    # go on during a write, a writer waits its turn instead of failing at once, and IMMEDIATE
    # takes the write lock when a transaction begins, so two never deadlock upgrading a read.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": envint("SQLITE_BUSY_TIMEOUT", "20"),
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
elif (
    DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    and envint("DB_POOL_MAX", "0") > 0
):
    # A pool of connections in each web process (psycopg_pool through Django), for gunicorn
    # only: scripts/serve sets DB_POOL_MAX to the process's threads, so a request never waits
    # for one; the rest (workers, commands) open a connection when they need it. A connection
    # is checked before it is lent (a PostgreSQL restart leaves none broken), and a request
    # waits at most DB_POOL_TIMEOUT seconds when the database is away, then gets its 503 page.
    # Numbers: docs/operations.md, "Database connections".
    _pool_max = envint("DB_POOL_MAX", "0")
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # Django's pool and persistent connections exclude
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True  # the pool checks a connection it lends
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": min(2, _pool_max),
        "max_size": _pool_max,
        "timeout": float(os.environ.get("DB_POOL_TIMEOUT", "2")),
        "max_idle": 300,
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and envbool(
    "DB_KEEPALIVE", "true"
):
    # A host that dies (power, kernel, cable) never closes its connections: PostgreSQL would
    # keep its sessions, and the row locks of a transaction cut in the middle, until the
    # kernel gives up on them (two hours and more), and the requests of the other hosts that
    # need those rows would wait as long. Each session asks the server to probe its client
    # after 10 s of silence, every 5 s, and to drop it after 25 s without an answer: a dead
    # host's transactions roll back and its locks go within about half a minute
    # (tests/production/test_hosts.py, a web host dying mid-burst). DB_KEEPALIVE=false leaves
    # them out, for a PgBouncer in front, which refuses a connection's options.
    _options = DATABASES["default"].setdefault("OPTIONS", {})
    _options["options"] = " ".join(
        [
            _options.get("options", ""),
            "-c tcp_keepalives_idle=10",
            "-c tcp_keepalives_interval=5",
            "-c tcp_keepalives_count=3",
            "-c tcp_user_timeout=25000",
        ]
    ).strip()
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Without STATIC_ROOT (development, tests) static files are served straight from the finders.
# scripts/serve sets STATIC_ROOT and STATIC_MANIFEST and collects them: whitenoise then serves
# hashed names (a year's max-age, immutable) and compressed copies, from memory.
STATIC_ROOT = Path(os.environ["STATIC_ROOT"]) if os.environ.get("STATIC_ROOT") else None
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if envbool("STATIC_MANIFEST", "false")
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = STATIC_ROOT is None
WHITENOISE_AUTOREFRESH = DEBUG
# Files served at the site's root: /favicon.ico, which browsers ask for on pages that name none.
WHITENOISE_ROOT = BASE_DIR / "static" / "root"
# Source maps are for a developer's browser tools, never a player's page: kept, not compressed
# (the API docs' swagger and redoc maps, 5 MB, took most of collectstatic's 38 s of CPU).
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = (*Compressor.SKIP_COMPRESS_EXTENSIONS, "map")
# Pages name static files by their hashed names ({% static %}, the manifest rewrites the files'
# own references): the unhashed copies are never served, so they are neither kept nor compressed.
WHITENOISE_KEEP_ONLY_HASHED_FILES = True

DATA_UPLOAD_MAX_MEMORY_SIZE = envint("DATA_UPLOAD_MAX_MEMORY_SIZE", str(512 * 1024))
FILE_UPLOAD_MAX_MEMORY_SIZE = envint("FILE_UPLOAD_MAX_MEMORY_SIZE", str(512 * 1024))

# Accounts (fleetbuilder/accounts): where logging in starts and where it lands. Axes' backend
# comes first: it refuses a locked-out login before the password is checked (it logs no one in).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "fleets:list"
LOGOUT_REDIRECT_URL = "catalog:home"

# Mail (password resets): EMAIL_DELIVERY=console (default) prints each message, file writes one
# file per message under EMAIL_FILE_PATH, smtp sends through EMAIL_HOST:EMAIL_PORT.
EMAIL_DELIVERY = os.environ.get("EMAIL_DELIVERY", "console").strip().lower()
_EMAIL_BACKENDS = {
    "console": "django.core.mail.backends.console.EmailBackend",
    "file": "django.core.mail.backends.filebased.EmailBackend",
    "smtp": "django.core.mail.backends.smtp.EmailBackend",
}
if EMAIL_DELIVERY not in _EMAIL_BACKENDS:
    raise ImproperlyConfigured(
        f"EMAIL_DELIVERY must be console, file or smtp, not {EMAIL_DELIVERY!r}"
    )
EMAIL_BACKEND = _EMAIL_BACKENDS[EMAIL_DELIVERY]
EMAIL_FILE_PATH = os.environ.get("EMAIL_FILE_PATH", str(BASE_DIR / "var" / "mail"))
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = envint("EMAIL_PORT", "25")
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = envbool("EMAIL_USE_TLS", "false")
EMAIL_USE_SSL = envbool("EMAIL_USE_SSL", "false")
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    raise ImproperlyConfigured("Set EMAIL_USE_TLS or EMAIL_USE_SSL, not both")
EMAIL_TIMEOUT = envint("EMAIL_TIMEOUT", "10")
DEFAULT_FROM_EMAIL = os.environ.get(
    "DEFAULT_FROM_EMAIL", "Void Command Fleet Builder <noreply@localhost>"
)

SESSION_COOKIE_HTTPONLY = True
# Pages hand the CSRF token to forms and to htmx (hx-headers in base.html); no script reads the
# cookie, so scripts may not (tests/security/test_headers.py).
CSRF_COOKIE_HTTPONLY = True
# A browser's fleets without an account live as long as its session: that long after its last
# visit (fleetbuilder/accounts/sessions.py). Signed-in sessions keep SESSION_COOKIE_AGE.
ANONYMOUS_SESSION_DAYS = envint("ANONYMOUS_SESSION_DAYS", "180")
if ANONYMOUS_SESSION_DAYS < 1:
    raise ImproperlyConfigured("ANONYMOUS_SESSION_DAYS must be 1 or more")
SESSION_COOKIE_SAMESITE = "Lax"
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy (django-csp): every script and stylesheet comes from this site's own
# files; no inline script, no style attribute, no eval. Pages that need an exception say why.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        # blob: the print preview shows the page it fetched (static/js/print.js)
        "img-src": [SELF, "data:", "blob:"],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

# Logs go to stderr, one line each, with the request id (fleetbuilder/ops/request_id.py): every
# request is one INFO line on fleetbuilder.request, so LOG_LEVEL=WARNING hides them.
LOG_LEVEL = envchoice("LOG_LEVEL", "INFO", ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"))
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "fleetbuilder.ops.request_id.RequestIdFilter"}},
    "formatters": {
        "line": {
            "format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s",
        },
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["request_id"],
            "formatter": "line",
        },
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "fleetbuilder.request": {"level": LOG_LEVEL},
        "fleetbuilder.simulator": {"level": LOG_LEVEL},
        # Django logs each 4xx/5xx response too; ours already has the status and the id.
        "django.request": {"level": "ERROR"},
        "django.server": {"level": "WARNING"},
        # PDF rendering reports each step at INFO.
        "weasyprint": {"level": "WARNING"},
        "fontTools": {"level": "WARNING"},
        # axes announces itself at INFO in every process; lockouts are WARNING.
        "axes": {"level": "WARNING"},
    },
}

# --- login throttling (django-axes) ---------------------------------------------------------
# Ten failed logins for one username from one client address lock that pair out for 15 minutes
# (each further failure starts the 15 minutes again); a success or a password reset by email
# clears it. Counts live in the default cache: Redis when REDIS_URL is set (below), so every
# process on every host sees the same counts; local memory, per process, without it.
AXES_HANDLER = "axes.handlers.cache.AxesCacheHandler"
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_FAILURE_LIMIT = 10
AXES_COOLOFF_TIME = 0.25  # hours: 15 minutes
AXES_RESET_ON_SUCCESS = True
AXES_USERNAME_CALLABLE = "fleetbuilder.accounts.lockout.username"  # casefolded
AXES_CLIENT_IP_CALLABLE = "fleetbuilder.http.client_address"
AXES_LOCKOUT_CALLABLE = "fleetbuilder.accounts.lockout.lockout_response"  # our login page, 429
# TRUSTED_PROXY_COUNT: how many reverse proxies in front of the app append to X-Forwarded-For.
# 0 (default): the client address is REMOTE_ADDR and X-Forwarded-For is ignored. N: the N
# closest proxies are trusted, so the address is the Nth entry from the right of
# X-Forwarded-For. (django-ipware is not installed, so axes would read REMOTE_ADDR only and
# ignore its AXES_IPWARE_* settings; fleetbuilder/http.py reads the header.)
TRUSTED_PROXY_COUNT = envint("TRUSTED_PROXY_COUNT", "0")
if TRUSTED_PROXY_COUNT < 0:
    raise ImproperlyConfigured(f"TRUSTED_PROXY_COUNT must be 0 or more, not {TRUSTED_PROXY_COUNT}")

# --- shared state: Redis for the cache and the simulator's task queue -----------------------
# REDIS_URL (redis://host:port/db or unix:///path/redis.sock) makes the cache Django's
# RedisCache, so throttles, once-tokens and cached pages are the same in every process, and is
# the Celery broker. Without it (tests, a one-process shell) the cache is per process.
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
if REDIS_URL and not REDIS_URL.startswith(("redis://", "rediss://", "unix://")):
    raise ImproperlyConfigured(
        f"REDIS_URL must start with redis://, rediss:// or unix://, not {REDIS_URL!r}"
    )
# Every Redis call has a deadline, so a Redis that is down or frozen (SIGSTOP: its
# port still accepts connections, nothing answers) holds no request for long:
# - connect: 0.5 s. On a working network a connection to Redis takes a millisecond; past half
#   a second it is down or unroutable.
# - read: 1 s. Redis answers our calls (a counter, a token, at most a 1 MB cached replay or
#   PDF) in milliseconds; a second without an answer means it is frozen or swamped.
# - and a breaker per process (fleetbuilder/sharedstate.py): after one call fails for want of
#   an answer, every call in that process fails at once for REDIS_RETRY_SECONDS (default 5),
#   then one is tried again. So a request waits at most one timeout (1 s, under the 2 s goal)
#   however many calls it makes. No retries: a failed call is reported, not repeated.
# Pages that need Redis (log-in, sign-up, once-tokens, starting a run) answer a 503 saying so;
# the rest (ship pages, the builder, saved fleets) go on without it (docs/operations.md).
REDIS_CONNECT_TIMEOUT = float(os.environ.get("REDIS_CONNECT_TIMEOUT", "0.5"))
REDIS_READ_TIMEOUT = float(os.environ.get("REDIS_READ_TIMEOUT", "1"))
REDIS_RETRY_SECONDS = float(os.environ.get("REDIS_RETRY_SECONDS", "5"))
if not (
    0 < REDIS_CONNECT_TIMEOUT <= 2 and 0 < REDIS_READ_TIMEOUT <= 2 and REDIS_RETRY_SECONDS >= 0
):
    raise ImproperlyConfigured(
        "REDIS_CONNECT_TIMEOUT and REDIS_READ_TIMEOUT must be over 0 and at most 2 (seconds), "
        "REDIS_RETRY_SECONDS 0 or more"
    )
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "fleetbuilder.sharedstate.GuardedRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "vc"),
            "OPTIONS": {
                "socket_connect_timeout": REDIS_CONNECT_TIMEOUT,
                "socket_timeout": REDIS_READ_TIMEOUT,
            },
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    # One process only (tests, a shell): login counts are that process's, which axes warns
    # about. scripts/serve and scripts/run always give the app a Redis.
    SILENCED_SYSTEM_CHECKS = ["axes.W001"]

# Celery (fleetbuilder/celery.py reads every CELERY_* setting). Tasks are acknowledged after they
# run, and put back when the process playing them dies: a chunk's result is written once, so a
# chunk played twice counts once.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "").strip() or REDIS_URL or "memory://"
CELERY_TASK_ALWAYS_EAGER = envbool("CELERY_TASK_ALWAYS_EAGER", "false")
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# The web tier publishes chunks with the same deadlines as the cache, and does not retry a
# publish: a Redis that is away makes starting a run a 503 at once (nothing is kept), instead
# of a request waiting through retries. No result backend: a chunk writes its result to the
# database (CELERY_TASK_IGNORE_RESULT), so no request ever waits on one.
CELERY_BROKER_CONNECTION_TIMEOUT = REDIS_CONNECT_TIMEOUT
CELERY_TASK_PUBLISH_RETRY = False
CELERY_RESULT_BACKEND = None
# A message a worker took but never acknowledged (its machine died) goes back to the queue
# after this many seconds; a chunk takes under a second (one that takes longer is played again,
# and counted once). The workers look for such messages every tenth of it (1 to 10 s), not
# kombu's default of every 100 s, so a chunk a lost machine held is played again soon after
# the timeout (tests/production/test_hosts.py, the partition).
SIM_VISIBILITY_TIMEOUT = envint("SIM_VISIBILITY_TIMEOUT", "60")
if SIM_VISIBILITY_TIMEOUT < 1:
    raise ImproperlyConfigured("SIM_VISIBILITY_TIMEOUT must be 1 or more (seconds)")
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": SIM_VISIBILITY_TIMEOUT,
    "unacked_restore_interval": max(1, min(10, SIM_VISIBILITY_TIMEOUT // 10)),
    "unacked_restore_throttle": 1,
    "socket_connect_timeout": REDIS_CONNECT_TIMEOUT,
    # over kombu's 1 s BRPOP poll, so a worker's wait for work is never cut short
    "socket_timeout": max(REDIS_READ_TIMEOUT, 1.5),
    # Priority queues: a worker takes priority 0 first, then 3, 6, 9 (kombu's default
    # steps, named here because the simulator relies on them: fleetbuilder/simulator/
    # fairness.py). A client with little queued is played first.
    "priority_steps": [0, 3, 6, 9],
}
# Tasks sent without a priority (cards, packs, analyses, the balance round robin) go after
# small simulator runs and before big ones.
CELERY_TASK_DEFAULT_PRIORITY = 3
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_WORKER_SEND_TASK_EVENTS = False

# The simulator (fleetbuilder/simulator): how a run is cut up and how much may wait.
SIM_CHUNK_BATTLES = envint("SIM_CHUNK_BATTLES", "50")
SIM_MAX_ACTIVE_PER_OWNER = envint("SIM_MAX_ACTIVE_PER_OWNER", "2")
SIM_MAX_QUEUED_BATTLES = envint("SIM_MAX_QUEUED_BATTLES", "100000")
# Fair shares of the queue (R-98, fleetbuilder/simulator/fairness.py), in estimated CPU-seconds:
# what one client (an account, else a client address) may have queued; a chunk's work; the
# client's queued work under which a run is small (played first) or medium.
SIM_CLIENT_BUDGET_SECONDS = envint("SIM_CLIENT_BUDGET_SECONDS", "600")
SIM_CHUNK_SECONDS = float(os.environ.get("SIM_CHUNK_SECONDS", "1"))
SIM_SMALL_SECONDS = envint("SIM_SMALL_SECONDS", "30")
SIM_MEDIUM_SECONDS = envint("SIM_MEDIUM_SECONDS", "300")
SIM_RUN_DAYS = envint("SIM_RUN_DAYS", "30")
# A run with no progress for this long gets its missing chunks sent again (Matchup.
# resume_if_stalled), when its page is looked at.
SIM_STALL_SECONDS = envint("SIM_STALL_SECONDS", "120")
if SIM_CHUNK_BATTLES < 1 or SIM_MAX_ACTIVE_PER_OWNER < 1 or SIM_RUN_DAYS < 1:
    raise ImproperlyConfigured(
        "SIM_CHUNK_BATTLES, SIM_MAX_ACTIVE_PER_OWNER and SIM_RUN_DAYS must be 1 or more"
    )

# --- rate limits
# Requests per client (a signed-in player, else the client address) in each window of
# RATE_LIMIT_WINDOW seconds on the endpoints that cost CPU (fleetbuilder/ratelimit.py, R-96);
# 0 turns one off. Generous for real players; counted in the default cache (Redis when shared).
RATE_LIMIT_WINDOW = envint("RATE_LIMIT_WINDOW", "60")
RATE_LIMITS = {
    "cards": envint("RATE_LIMIT_CARDS", "30"),  # card PDFs
    "simulator": envint("RATE_LIMIT_SIMULATOR", "10"),  # runs started
    "import": envint("RATE_LIMIT_IMPORT", "30"),  # import previews and saves (POST)
    "sharecode": envint("RATE_LIMIT_SHARECODE", "120"),  # /fleets/code/<code>/ and its cards
    "replay": envint("RATE_LIMIT_REPLAY", "20"),  # battle replays played (not cached), R-154
    # Issue 34: accounts made, current-password checks, failed log-ins, each from one client,
    # in windows of their own (below). Axes' 10 failures per username and address stay.
    "signup": envint("RATE_LIMIT_SIGNUP", "10"),  # accounts made from one address, an hour
    "password": envint("RATE_LIMIT_PASSWORD", "10"),  # password change, account deletion
    "login": envint("RATE_LIMIT_LOGIN_FAILURES", "30"),  # from one address, any usernames
}
RATE_LIMIT_WINDOWS = {"signup": 3600, "password": 900, "login": 900}
# An account's requests count against its client address too, at this many times the limit:
# free accounts made at one address do not multiply its allowance, and a club's players
# behind one address still have room.
RATE_LIMIT_ADDRESS_FACTOR = envint("RATE_LIMIT_ADDRESS_FACTOR", "2")
# Card PDFs and replays being made at once for one address, one more waiting its turn (0: no
# limit). 1 keeps one address from taking every core of the web tier (scripts/bench-flood
# --web); the print page asks for its preview and its PDF one at a time (static/js/print.js,
# tests/browser/test_print_busy_browser.py), so a player never meets it.
RATE_LIMIT_IN_FLIGHT = envint("RATE_LIMIT_IN_FLIGHT", "1")
if RATE_LIMIT_WINDOW < 1 or min(RATE_LIMITS.values()) < 0 or RATE_LIMIT_ADDRESS_FACTOR < 1:
    raise ConfigError(
        "RATE_LIMIT_WINDOW and RATE_LIMIT_ADDRESS_FACTOR must be 1 or more, and "
        "RATE_LIMIT_* 0 or more"
    )
# A fleet stored before the bounds of R-95 and past them answers 422 with the reason, not 500.
MIDDLEWARE = [*MIDDLEWARE, "fleetbuilder.fleets.limits.StoredFleetOverBounds"]
