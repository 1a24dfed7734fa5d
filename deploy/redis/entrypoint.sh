#!/bin/sh
# Starts Redis as its own user, requiring the password in REDIS_PASSWORD_FILE (a compose secret)
# of every client. It holds queue messages and wake-up hints only: the judge rebuilds both from
# its database, so the append-only file (in /data) is for a quick restart, not for safety. With
# REDIS_TLS_CERT_FILE, REDIS_TLS_KEY_FILE and REDIS_TLS_CA_FILE (compose secrets) it also listens
# with TLS on port 6380, which worker hosts require.
set -eu
secret=${REDIS_PASSWORD_FILE:?set REDIS_PASSWORD_FILE to the file holding the password}
[ -s "$secret" ] || { echo "judge-redis: $secret is missing or empty" >&2; exit 1; }
mkdir -p /data
chown redis:redis /data
config=$(mktemp)
# The password goes in a file only redis reads, never on a command line that `ps` shows.
printf 'requirepass "%s"\n' "$(head -n 1 "$secret" | tr -d '\r\n"\\')" >"$config"
chown redis "$config"
chmod 600 "$config"
set --
if [ -n "${REDIS_TLS_CERT_FILE:-}" ] && [ -n "${REDIS_TLS_KEY_FILE:-}" ] && [ -n "${REDIS_TLS_CA_FILE:-}" ]; then
  tls=$(mktemp -d)
  install -o redis -g redis -m 644 "$REDIS_TLS_CERT_FILE" "$tls/server.crt"
  install -o redis -g redis -m 600 "$REDIS_TLS_KEY_FILE" "$tls/server.key"
  install -o redis -g redis -m 644 "$REDIS_TLS_CA_FILE" "$tls/ca.crt"
  chown redis "$tls"
  set -- --tls-port 6380 --tls-cert-file "$tls/server.crt" --tls-key-file "$tls/server.key" \
    --tls-ca-cert-file "$tls/ca.crt" --tls-auth-clients no
fi
exec setpriv --reuid=redis --regid=redis --init-groups redis-server "$config" \
  --bind 0.0.0.0 --port 6379 --dir /data --appendonly yes --save "" "$@"
