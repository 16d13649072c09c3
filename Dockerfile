# Production image for compose.yaml (web, worker, beat and the one-shot migrate share it).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# gettext: compilemessages at build time.
RUN apt-get update \
    && apt-get install -y --no-install-recommends gettext \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app

# Dependencies first (pinned in pyproject.toml), so code changes reuse this layer.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" \
        > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt

COPY . .
# The project itself, editable: settings find templates/, static/ and locale/ beside the code in /app.
# Nothing is compiled: the computer plays in the browser (issue 26); the site never imports bench/.
RUN pip install --no-deps -e . \
    && SECRET_KEY=build-only-not-secret python manage.py collectstatic --noinput \
    && if find . -name '*.po' -not -path './.venv/*' | grep -q .; then \
         SECRET_KEY=build-only-not-secret python manage.py compilemessages --ignore '.venv' ; fi \
    && useradd --system --uid 10001 --no-create-home caro

USER caro
EXPOSE 8000
# The same flags as compose.yaml's web service (see there).
CMD ["python", "-m", "caro.webserver", "-b", "0.0.0.0", "-p", "8000", "--proxy-headers", "--websocket-max-message-size", "65536", "caro.asgi:application"]
