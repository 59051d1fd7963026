#!/usr/bin/env bash
# Writes prisma/migrations/<timestamp>_<name>/migration.sql from the schema change since the last
# commit (or since REV), offline. `prisma migrate dev` cannot run here: its shadow database needs
# the native engines, and `--from-migrations` fails the same way with the driver adapter.
#   usage: scripts/new-migration.sh add_deliveries [REV]
set -euo pipefail
name=${1:?usage: scripts/new-migration.sh <name> [REV]}
rev=${2:-HEAD}
cd "$(dirname "$0")/.."
old=$(mktemp --suffix=.prisma)
trap 'rm -f "$old"' EXIT
git show "$rev:prisma/schema.prisma" >"$old"
dir="prisma/migrations/$(date -u +%Y%m%d%H%M%S)_${name}"
mkdir -p "$dir"
npx prisma migrate diff --from-schema-datamodel "$old" --to-schema-datamodel prisma/schema.prisma \
  --script >"$dir/migration.sql"
echo "wrote $dir/migration.sql:"
cat "$dir/migration.sql"
