#!/usr/bin/env bash
# catalogcheck gate for any CI: runs `catalogcheck check` once with your arguments, prints the text report on
# standard output (the CI log) and writes every machine report into one folder for the CI to pick up.
# Exits with catalogcheck's own exit code. Run `ci/gate.sh --help` for usage.
set -u

usage() {
  cat <<'USAGE'
Usage: ci/gate.sh CHECK-ARGUMENTS...
       ci/gate.sh --help

Runs `catalogcheck check CHECK-ARGUMENTS...` once. The text report goes to standard output; these
reports are written into the reports folder (created when missing; earlier copies are removed first):

  report.json    JSON (the full result, summary.exitCode included)
  report.sarif   SARIF 2.1.0 (code scanning)
  junit.xml      JUnit XML (test report widgets)
  report.html    the self-contained HTML release report
  report.md      Markdown (PR comments, job summaries)

Example:
  ci/gate.sh --config products.yml --store appstore.storekit --store play-json:play/ --as-of 2026-11-22

Environment:
  CATALOGCHECK               the catalogcheck executable (default: catalogcheck, from PATH)
  CATALOGCHECK_REPORTS_DIR   the reports folder (default: catalogcheck-reports)

Exit codes (catalogcheck's, passed through unchanged):
  0   consistent: no failing finding
  1   inconsistent: at least one failing finding (errors; warnings too with --strict)
  2   cannot check: an input is unreadable, malformed or invalid, or a report cannot be written
  64  usage error: an unknown flag or a bad flag value
  127 the catalogcheck executable was not found
USAGE
}

case "${1-}" in
  -h | --help)
    usage
    exit 0
    ;;
esac
if [ "$#" -eq 0 ]; then
  usage >&2
  exit 64
fi

catalogcheck=${CATALOGCHECK:-catalogcheck}
reports=${CATALOGCHECK_REPORTS_DIR:-catalogcheck-reports}

if ! command -v "$catalogcheck" >/dev/null 2>&1; then
  echo "gate.sh: catalogcheck executable not found: '$catalogcheck' (set CATALOGCHECK to its path)" >&2
  exit 127
fi
if ! mkdir -p -- "$reports"; then
  echo "gate.sh: cannot create the reports folder '$reports'" >&2
  exit 2
fi
# Reports left by an earlier run would be uploaded as if this run had written them.
rm -f -- "$reports/report.json" "$reports/report.sarif" "$reports/junit.xml" "$reports/report.html" \
  "$reports/report.md"

# One run, so every report comes from the same findings. The formats are named explicitly rather than
# inferred from the extensions, so a folder name holding a colon or a dot cannot change them.
"$catalogcheck" check "$@" \
  --report "json:$reports/report.json" \
  --report "sarif:$reports/report.sarif" \
  --report "junit:$reports/junit.xml" \
  --report "html:$reports/report.html" \
  --report "markdown:$reports/report.md"
code=$?

case "$code" in
  0 | 1) echo "gate.sh: reports in $reports/ (exit $code)" >&2 ;;
  *) echo "gate.sh: catalogcheck exited $code; reports may be missing from $reports/" >&2 ;;
esac
exit "$code"
