#!/usr/bin/env bash
# Installs topup-batch as a systemd service (docs/running-as-a-service.md):
#   the user and group topup (systemd-sysusers, from deploy/topup-batch.sysusers),
#   /var/lib/topup-batch with data/, inbox/, reports/ (topup:topup, 0750; the unit's working folder),
#   /etc/topup-batch/topup-batch.env (root, 0600; a template, never overwritten once it exists),
#   /opt/topup-batch/topup-batch.jar and /etc/systemd/system/topup-batch.service (root, 0644).
# Idempotent: a second run changes nothing (a file is only copied when its content differs).
# It does not start the service: the environment file needs the provider's credentials first.
#
# usage: deploy/install.sh [--root DIR] [--jar FILE]
#   --root DIR  install below DIR instead of / (tests, images); systemctl is not called then
#   --jar FILE  the jar to install (default: target/topup-batch.jar next to this folder)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root=/
jar="$here/../target/topup-batch.jar"
while [ $# -gt 0 ]; do
  case "$1" in
    --root) root="${2:?--root needs a folder}"; shift 2 ;;
    --jar) jar="${2:?--jar needs a file}"; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "install.sh: unknown argument: $1 (usage: install.sh [--root DIR] [--jar FILE])" >&2; exit 2 ;;
  esac
done
root="$(cd "$root" && pwd)"   # must exist; absolute
r="${root%/}"                  # prefix for paths: "" for /
[ -f "$jar" ] || { echo "install.sh: no jar at $jar (build it: mvn -B -ntp -DskipTests package, or pass --jar)" >&2; exit 1; }
command -v systemd-sysusers >/dev/null || { echo "install.sh: systemd-sysusers is missing (Debian: apt-get install systemd)" >&2; exit 1; }

owners=yes
if [ "$(id -u)" -ne 0 ]; then
  if [ "$root" = / ]; then echo "install.sh: run it as root (sudo deploy/install.sh)" >&2; exit 1; fi
  owners=no
  echo "not root: owners left as they are (the service folders would be topup:topup)"
fi

# A file copied only when missing or different; owner root, the given mode.
put() { # put SOURCE DEST MODE
  if [ -f "$2" ] && cmp -s "$1" "$2"; then
    echo "kept     $2"
  else
    install -m "$3" "$1" "$2"
    echo "written  $2"
  fi
  [ "$(stat -c %a "$2")" = "${3#0}" ] || chmod "$3" "$2"
}
# A folder with owner and mode, touched only when something differs.
folder() { # folder DIR MODE OWNER(uid:gid)
  if [ -d "$1" ]; then echo "kept     $1/"; else mkdir -p "$1"; echo "created  $1/"; fi
  [ "$(stat -c %a "$1")" = "${2#0}" ] || chmod "$2" "$1"
  if [ "$owners" = yes ] && [ "$(stat -c %u:%g "$1")" != "$3" ]; then chown "$3" "$1"; fi
}

# 1. user and group
mkdir -p "$r/etc" "$r/usr/lib/sysusers.d"
put "$here/topup-batch.sysusers" "$r/usr/lib/sysusers.d/topup-batch.conf" 0644
if [ "$root" = / ]; then
  systemd-sysusers "$here/topup-batch.sysusers"
else
  systemd-sysusers --root="$root" "$here/topup-batch.sysusers"
fi
uid="$(awk -F: '$1 == "topup" { print $3 }' "$r/etc/passwd")"
gid="$(awk -F: '$1 == "topup" { print $3 }' "$r/etc/group")"
[ -n "$uid" ] && [ -n "$gid" ] || { echo "install.sh: user topup was not created in $r/etc/passwd" >&2; exit 1; }
echo "user     topup ($uid:$gid)"

# 2. folders
folder "$r/var/lib/topup-batch" 0750 "$uid:$gid"
for d in data inbox reports; do folder "$r/var/lib/topup-batch/$d" 0750 "$uid:$gid"; done
folder "$r/etc/topup-batch" 0755 0:0
folder "$r/opt/topup-batch" 0755 0:0
mkdir -p "$r/etc/systemd/system"

# 3. environment file: created once, never overwritten (it holds the credentials)
env="$r/etc/topup-batch/topup-batch.env"
if [ -e "$env" ]; then
  echo "kept     $env"
else
  (umask 077; cat > "$env" <<'ENV'
# topup-batch settings (docs/settings.md), read by systemd for topup-batch.service.
# Keep this file mode 0600, owner root. All three empty: the embedded sandbox (no real order).
TOPUP_BASE_URL=
TOPUP_API_KEY=
TOPUP_API_SECRET=
ENV
  )
  echo "created  $env (0600: put the provider's credentials in it)"
fi
[ "$(stat -c %a "$env")" = 600 ] || { chmod 0600 "$env"; echo "mode     $env set to 0600"; }

# 4. the jar and the unit
put "$jar" "$r/opt/topup-batch/topup-batch.jar" 0644
put "$here/topup-batch.service" "$r/etc/systemd/system/topup-batch.service" 0644

if [ "$root" = / ] && [ -d /run/systemd/system ]; then
  systemctl daemon-reload
  echo "next: edit /etc/topup-batch/topup-batch.env, then: systemctl enable --now topup-batch"
else
  echo "systemd not called (--root $root, or systemd not running)"
fi
