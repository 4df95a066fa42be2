#!/usr/bin/env bash
# Packs every public package of the workspace into one folder (./release unless told): the tarballs
# a release ships, installable anywhere with `npm install <folder>/*.tgz`. pnpm pack writes each
# package's `workspace:` dependencies as the release's versions. Builds first unless --no-build.
set -euo pipefail
build=true
if [ "${1:-}" = "--no-build" ]; then build=false; shift; fi
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dest=$(mkdir -p "${1:-$root/release}" && cd "${1:-$root/release}" && pwd)
cd "$root"
if $build; then pnpm exec turbo run build --filter='./packages/*' --filter='./apps/*' --output-logs=errors-only; fi
for dir in packages/* apps/*; do
  [ "$(node -p "require('./$dir/package.json').private === true")" = true ] && continue
  (cd "$dir" && pnpm pack --pack-destination "$dest" >/dev/null)
done
ls "$dest"/*.tgz
