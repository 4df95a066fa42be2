#!/usr/bin/env bash
# `pnpm service-api <command>` (or `npm run service-api -- <command>`): builds the CLI when its
# sources changed (turbo caches the rest), then runs it. The build is quiet unless it fails, so
# what the command prints (an export, a new key) is all there is on stdout.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! build_log=$(pnpm exec turbo run build --filter=@service-api/cli... --output-logs=errors-only 2>&1); then
  printf '%s\n' "$build_log" >&2
  exit 1
fi
exec node apps/cli/dist/main.js "$@"
