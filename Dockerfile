# syntax=docker/dockerfile:1
# ClaimCheck image: `docker run IMAGE web` serves with gunicorn, `docker run IMAGE worker`
# runs a django-q2 worker. Configure with DATABASE_URL, REDIS_URL, DJANGO_SECRET_KEY, ...

FROM python:3.11-slim-bookworm AS build
ENV UV_COMPILE_BYTECODE=1 UV_LINK_MODE=copy UV_PROJECT_ENVIRONMENT=/opt/venv
RUN pip install --no-cache-dir "uv==0.13.8"
WORKDIR /app
COPY pyproject.toml uv.lock ./
# WITH_LLM=true adds the local model server (llama.cpp and the SmolLM2 model: compose's `llm`).
ARG WITH_LLM=false
RUN if [ "$WITH_LLM" = true ]; then groups="--group llm"; else groups=""; fi; \
    uv sync --frozen --no-dev --no-install-project $groups
COPY . .
# The runtime never writes bytecode (PYTHONDONTWRITEBYTECODE): compile the project's here too, so
# that a worker or server does not compile every module it imports each time it starts.
RUN /opt/venv/bin/python -m compileall -q -x '/[.]' /app
RUN DJANGO_SECRET_KEY=build-only DJANGO_DEBUG=false /opt/venv/bin/python manage.py collectstatic --noinput

FROM python:3.11-slim-bookworm AS runtime
ENV PATH=/opt/venv/bin:$PATH PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1 \
    LITELLM_LOCAL_MODEL_COST_MAP=True DJANGO_DEBUG=false
RUN groupadd --system claimcheck && useradd --system --gid claimcheck --home /app claimcheck
WORKDIR /app
COPY --from=build /opt/venv /opt/venv
COPY --from=build --chown=claimcheck:claimcheck /app /app
USER claimcheck
EXPOSE 8000
ENTRYPOINT ["/app/scripts/docker-entrypoint"]
CMD ["web"]
