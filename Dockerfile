# The production image: the same entry points as on one machine (scripts/serve web | worker).
# Docker cannot run on the project's own machines; tests/production/test_compose.py checks this
# file and compose.yaml name those entry points.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 SERVE_SKIP_SETUP=1
WORKDIR /app
COPY . /app
# Debian packages, the virtualenv, the project and the compiled simulator, once, at build time.
RUN apt-get update -qq \
 && apt-get install -y -qq --no-install-recommends procps gcc \
 && bash scripts/setup.sh \
 && rm -rf /var/lib/apt/lists/* var/secret_key  # no key in the image: set SECRET_KEY
RUN useradd --system --home /app --shell /usr/sbin/nologin fleet \
 && mkdir -p /app/var && chown -R fleet /app/var
USER fleet
EXPOSE 8000
ENV BIND=0.0.0.0:8000
CMD ["scripts/serve", "web"]
