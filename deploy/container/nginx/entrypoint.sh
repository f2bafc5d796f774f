#!/bin/sh
# Starts nginx; first generates a self-signed certificate when the operator has mounted none,
# so a trial runs at once (browsers will warn; production mounts its own into /etc/portal-tls).
set -eu
dir=/etc/portal-tls
if [ ! -s "$dir/fullchain.pem" ] || [ ! -s "$dir/privkey.pem" ]; then
  name="${SERVER_NAME:-localhost}"
  echo "No certificate in $dir: generating a self-signed one for $name (trial only)."
  openssl req -x509 -newkey rsa:2048 -nodes -days 365 -subj "/CN=$name" \
    -addext "subjectAltName=DNS:$name" \
    -keyout "$dir/privkey.pem" -out "$dir/fullchain.pem" 2>/dev/null
  chmod 600 "$dir/privkey.pem"
fi
exec nginx -g 'daemon off;'
