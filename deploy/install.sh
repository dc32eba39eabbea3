#!/usr/bin/env bash
# Install Outorga as three systemd services (web, task worker, scheduler) on Debian 12 / Ubuntu 22.04+.
#
#   sudo deploy/install.sh --host outorga.olimpia.sp.gov.br \
#        --database-url postgresql://outorga:SENHA@127.0.0.1:5432/outorga
#
# Run from a checkout where `make install static` has run (the collected static files are copied). It copies the
# code to <prefix>/opt/outorga, creates the Python environment from the locked requirements, writes
# <prefix>/etc/outorga/outorga.env and audit.keys once (never overwritten: they hold the keys), the units in
# <prefix>/etc/systemd/system, applies the migrations and runs `check --deploy`. Safe to run again for an
# update. With --prefix other than / it touches nothing outside the prefix (no user, no systemctl): that is how
# tests/test_deploy.py runs it. See docs/operations.md.
set -euo pipefail

PREFIX=/
SERVICE_USER=outorga
HOST=localhost
DATABASE_URL=""
VENV=""
START=1
SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

usage() {
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
    echo "Opções: --prefix DIR  --user NOME  --host NOME  --database-url URL  --venv DIR_EXISTENTE  --no-start"
}

while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) PREFIX="$2"; shift 2 ;;
        --user) SERVICE_USER="$2"; shift 2 ;;
        --host) HOST="$2"; shift 2 ;;
        --database-url) DATABASE_URL="$2"; shift 2 ;;
        --venv) VENV="$2"; shift 2 ;;  # reuse an environment (offline machines, tests) instead of pip install
        --no-start) START=0; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "Opção desconhecida: $1" >&2; usage >&2; exit 2 ;;
    esac
done

PREFIX="${PREFIX%/}"
APP_DIR="$PREFIX/opt/outorga"
CONF_DIR="$PREFIX/etc/outorga"
DATA_DIR="$PREFIX/var/lib/outorga"
UNIT_DIR="$PREFIX/etc/systemd/system"
SYSTEM_INSTALL=0
[ -z "$PREFIX" ] && SYSTEM_INSTALL=1
[ -n "$DATABASE_URL" ] || DATABASE_URL="sqlite:///$DATA_DIR/outorga.sqlite3"

say() { echo "==> $*"; }
fail() { echo "ERRO: $*" >&2; exit 1; }

[ -f "$SOURCE/manage.py" ] || fail "rode a partir de um checkout do Outorga ($SOURCE não tem manage.py)"
[ -d "$SOURCE/staticfiles/vendor" ] || fail "faltam os arquivos estáticos: rode 'make install static' antes"
if [ "$SYSTEM_INSTALL" = 1 ] && [ "$(id -u)" != 0 ]; then fail "a instalação no sistema precisa de root (sudo)"; fi

if [ "$SYSTEM_INSTALL" = 1 ] && ! id "$SERVICE_USER" >/dev/null 2>&1; then
    say "Criando o usuário de sistema $SERVICE_USER"
    useradd --system --home-dir "$DATA_DIR" --shell /usr/sbin/nologin "$SERVICE_USER"
fi
SERVICE_GROUP="$(id -gn "$SERVICE_USER")"

say "Copiando o código para $APP_DIR"
mkdir -p "$APP_DIR" "$CONF_DIR" "$DATA_DIR" "$UNIT_DIR"
# Code and collected static files only: no database, uploads, environment or front-end sources of the checkout.
tar -C "$SOURCE" --exclude=./.git --exclude=./.venv --exclude=./node_modules --exclude=./var \
    --exclude='*/__pycache__' --exclude=./.ci -cf - . | tar -C "$APP_DIR" -xf -
# Of node_modules, only the folders settings.STATICFILES_DIRS serves (Django checks they exist).
vendor_dirs() {
    (cd "$SOURCE" && DJANGO_SETTINGS_MODULE=outorga.settings "$1" -c '
import django; django.setup()
from pathlib import Path
from django.conf import settings
for entry in settings.STATICFILES_DIRS:
    path = Path(entry[1] if isinstance(entry, tuple) else entry)
    if "node_modules" in path.parts:
        print(path.relative_to(settings.BASE_DIR))' 2>/dev/null)
}

if [ -n "$VENV" ]; then
    [ -x "$VENV/bin/python" ] || fail "--venv $VENV não é um ambiente Python"
    ln -sfn "$(cd "$VENV" && pwd)" "$APP_DIR/.venv"
elif [ ! -x "$APP_DIR/.venv/bin/python" ] || [ "$APP_DIR/requirements/base.txt" -nt "$APP_DIR/.venv/.installed" ]; then
    say "Instalando as dependências Python (versões e hashes de requirements/base.txt)"
    python3 -m venv "$APP_DIR/.venv"
    "$APP_DIR/.venv/bin/pip" install --quiet --require-hashes -r "$APP_DIR/requirements/base.txt"
    touch "$APP_DIR/.venv/.installed"
fi

mapfile -t VENDOR < <(vendor_dirs "$APP_DIR/.venv/bin/python")
[ "${#VENDOR[@]}" -gt 0 ] || fail "não foi possível ler as pastas de node_modules das configurações"
tar -C "$SOURCE" -chf - "${VENDOR[@]}" | tar -C "$APP_DIR" -xf -

secret() { "$APP_DIR/.venv/bin/python" -c 'import secrets; print(secrets.token_urlsafe(48))'; }

umask 027
if [ ! -f "$CONF_DIR/audit.keys" ]; then
    say "Gerando a chave da trilha de auditoria em $CONF_DIR/audit.keys (guarde uma cópia fora do servidor)"
    echo "k$(date +%Y%m%d):$(secret)" > "$CONF_DIR/audit.keys"
fi
if [ ! -f "$CONF_DIR/outorga.env" ]; then
    say "Escrevendo a configuração em $CONF_DIR/outorga.env"
    sed -e "s|@SECRET_KEY@|$(secret)|" -e "s|@METRICS_TOKEN@|$(secret)|" -e "s|@HOST@|$HOST|g" \
        -e "s|@CONF_DIR@|$CONF_DIR|g" -e "s|@DATA_DIR@|$DATA_DIR|g" -e "s|@DATABASE_URL@|$DATABASE_URL|" \
        "$SOURCE/deploy/outorga.env.in" > "$CONF_DIR/outorga.env"
else
    say "Mantendo a configuração existente em $CONF_DIR/outorga.env"
fi
umask 022
chown -R "root:$SERVICE_GROUP" "$CONF_DIR" 2>/dev/null || true
chmod 750 "$CONF_DIR"
chmod 640 "$CONF_DIR/outorga.env" "$CONF_DIR/audit.keys"
chown -R "$SERVICE_USER:$SERVICE_GROUP" "$DATA_DIR"

say "Instalando os serviços em $UNIT_DIR"
for unit in web worker scheduler; do
    sed -e "s|@APP_DIR@|$APP_DIR|g" -e "s|@CONF_DIR@|$CONF_DIR|g" -e "s|@DATA_DIR@|$DATA_DIR|g" \
        -e "s|@USER@|$SERVICE_USER|g" -e "s|@GROUP@|$SERVICE_GROUP|g" \
        "$SOURCE/deploy/systemd/outorga-$unit.service.in" > "$UNIT_DIR/outorga-$unit.service"
done

as_service() {
    # The management commands run as the service user, with the services' configuration.
    local runner=()
    [ "$(id -u)" = 0 ] && [ "$(id -un)" != "$SERVICE_USER" ] && runner=(runuser -u "$SERVICE_USER" --)
    (cd "$APP_DIR" && set -a && . "$CONF_DIR/outorga.env" && set +a && "${runner[@]}" .venv/bin/python manage.py "$@")
}

say "Conferindo o banco e aplicando as migrações"
as_service outorga_dbcheck
as_service migrate --noinput
as_service createcachetable
say "Conferindo a configuração de produção"
as_service check --deploy --fail-level WARNING

if [ "$SYSTEM_INSTALL" = 1 ]; then
    systemctl daemon-reload
    if [ "$START" = 1 ]; then
        systemctl enable --now outorga-web.service outorga-worker.service outorga-scheduler.service
        systemctl restart outorga-web.service outorga-worker.service outorga-scheduler.service
    fi
fi
say "Pronto. Falta: o proxy HTTPS para ${HOST} → 127.0.0.1:8000 e o primeiro administrador"
echo "    (cd $APP_DIR && set -a && . $CONF_DIR/outorga.env && set +a && .venv/bin/python manage.py outorga_setup_admin)"
