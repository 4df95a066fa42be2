#!/usr/bin/env bash
# Runs a command with the project's toolchain: Node 24 (.nvmrc) and pnpm (devEngines.packageManager).
# When the machine's Node is older than 22, or pnpm is missing, both come from the npm registry
# into .toolchain/ (the system's Node is left alone). Then dependencies are installed.
# With --browser first, it also installs Debian's chromium for the browser tests when it is missing.
set -euo pipefail
browser=false
if [ "${1:-}" = "--browser" ]; then browser=true; shift; fi
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
node_version=$(tr -d '[:space:]' < .nvmrc)
pnpm_version=$(node -p 'require("./package.json").devEngines.packageManager.version')

system_is_enough() {
  command -v node >/dev/null 2>&1 && command -v pnpm >/dev/null 2>&1 &&
    [ "$(node -p 'process.versions.node.split(".")[0]')" -ge 22 ] &&
    [ "$(pnpm --version 2>/dev/null)" = "$pnpm_version" ]
}

tools="$root/.toolchain"
if [ -x "$tools/node_modules/.bin/node" ]; then
  export PATH="$tools/node_modules/.bin:$PATH"
fi
if ! system_is_enough; then
  if [ "$("$tools/node_modules/.bin/node" -v 2>/dev/null)" != "v$node_version" ] ||
     [ "$("$tools/node_modules/.bin/pnpm" --version 2>/dev/null)" != "$pnpm_version" ]; then
    echo "toolchain: fetching node@$node_version and pnpm@$pnpm_version into .toolchain/" >&2
    mkdir -p "$tools"
    [ -f "$tools/package.json" ] || echo '{"private":true}' > "$tools/package.json"
    npm install --prefix "$tools" --no-audit --no-fund --loglevel=error \
      "node@$node_version" "pnpm@$pnpm_version" >&2
  fi
  export PATH="$tools/node_modules/.bin:$PATH"
fi

# The browser tests drive Debian's chromium (playwright-core downloads no browser here).
if $browser && [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "toolchain: installing Debian's chromium for the browser tests" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q chromium >/dev/null 2>&1 ||
      { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q chromium >/dev/null 2>&1; } ||
      echo "toolchain: chromium could not be installed; the browser tests will say so" >&2
  else
    echo "toolchain: no chromium, and no root to install it: the browser tests will say so" >&2
  fi
fi

# Install (or verify) the workspace's dependencies; quick when nothing changed.
pnpm install --frozen-lockfile --reporter=silent >&2 || pnpm install --frozen-lockfile >&2

exec "$@"
