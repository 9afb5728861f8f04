#!/usr/bin/env bash
# Refreshes the screenshots docs/view.md shows (docs/images/view-*.png): runs the view browser test
# (test/view-browser.test.ts) with VIEW_SCREENSHOTS_DIR pointing at docs/images. A plain test run writes
# its screenshots to a temp folder instead, so `npm test` never modifies the docs.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
VIEW_SCREENSHOTS_DIR="$root/docs/images" npx vitest run test/view-browser.test.ts
