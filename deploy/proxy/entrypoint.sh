#!/bin/sh
# nginx with the certificate in /etc/judge-tls (cert.pem, key.pem: the operator's, mounted
# there). Without one it makes a self-signed certificate for JUDGE_TLS_NAME (localhost) into that
# folder, so a first try works and the client can be told to trust that cert.pem.
set -eu
dir=/etc/judge-tls
if [ ! -s "$dir/cert.pem" ] || [ ! -s "$dir/key.pem" ]; then
  name=${JUDGE_TLS_NAME:-localhost}
  mkdir -p "$dir"
  openssl req -x509 -newkey rsa:2048 -nodes -days 365 -subj "/CN=$name" \
    -addext "subjectAltName=DNS:$name,DNS:localhost,IP:127.0.0.1" \
    -keyout "$dir/key.pem" -out "$dir/cert.pem" 2>/dev/null
  chmod 600 "$dir/key.pem"
  echo "judge-proxy: no certificate in $dir; made a self-signed one for $name (put yours there)" >&2
fi
exec nginx -g "daemon off;"
