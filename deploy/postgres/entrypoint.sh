#!/bin/sh
# Starts PostgreSQL as its own user. On an empty data folder it first makes the cluster in UTF-8
# (a SQL_ASCII one hands the judge bytes where it wants text), with POSTGRES_USER as its owner,
# the password read from POSTGRES_PASSWORD_FILE (a compose secret), and the database POSTGRES_DB;
# connections from the network must give that password (scram-sha-256). With POSTGRES_TLS_CERT_FILE
# and POSTGRES_TLS_KEY_FILE (compose secrets) it also speaks TLS, which worker hosts require.
set -eu
user=${POSTGRES_USER:-judge}
database=${POSTGRES_DB:-judge}
secret=${POSTGRES_PASSWORD_FILE:?set POSTGRES_PASSWORD_FILE to the file holding the password}
[ -s "$secret" ] || { echo "judge-postgres: $secret is missing or empty" >&2; exit 1; }
as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }

mkdir -p "$PGDATA" /run/postgresql
chown postgres:postgres "$PGDATA" /run/postgresql
chmod 700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  password=$(mktemp)
  head -n 1 "$secret" | tr -d '\r\n' >"$password"
  chown postgres "$password"
  as_postgres initdb -D "$PGDATA" -U "$user" --pwfile="$password" -E UTF8 --locale=C.UTF-8 \
    --auth-local=peer --auth-host=scram-sha-256 >/dev/null
  rm -f "$password"
  echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  # The database, made over the local socket before anyone can connect from outside.
  echo "local all $user trust" >"$PGDATA/pg_hba.first"
  cat "$PGDATA/pg_hba.conf" >>"$PGDATA/pg_hba.first"
  as_postgres pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -c hba_file=$PGDATA/pg_hba.first" -w start >/dev/null
  as_postgres createdb -U "$user" -O "$user" "$database"
  as_postgres pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  rm -f "$PGDATA/pg_hba.first"
fi
set --
if [ -n "${POSTGRES_TLS_CERT_FILE:-}" ] && [ -n "${POSTGRES_TLS_KEY_FILE:-}" ]; then
  # Copies it may read: the key must belong to postgres and be no one else's to read.
  mkdir -p /run/postgresql/tls
  install -o postgres -g postgres -m 644 "$POSTGRES_TLS_CERT_FILE" /run/postgresql/tls/server.crt
  install -o postgres -g postgres -m 600 "$POSTGRES_TLS_KEY_FILE" /run/postgresql/tls/server.key
  set -- -c ssl=on -c ssl_cert_file=/run/postgresql/tls/server.crt -c ssl_key_file=/run/postgresql/tls/server.key
fi
exec setpriv --reuid=postgres --regid=postgres --init-groups postgres -D "$PGDATA" "$@"
