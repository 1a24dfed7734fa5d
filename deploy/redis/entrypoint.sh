#!/bin/sh
# Starts Redis as its own user, requiring the password in REDIS_PASSWORD_FILE (a compose secret)
# of every client. It holds queue messages and wake-up hints only: the judge rebuilds both from
# its database, so the append-only file (in /data) is for a quick restart, not for safety.
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
exec setpriv --reuid=redis --regid=redis --init-groups redis-server "$config" \
  --bind 0.0.0.0 --port 6379 --dir /data --appendonly yes --save ""
