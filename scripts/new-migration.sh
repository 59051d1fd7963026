#!/usr/bin/env bash
# Writes prisma/migrations/<timestamp>_<name>/migration.sql from the schema change since the last
# commit (or since REV), offline, and the same change for PostgreSQL in
# prisma/postgresql/migrations/<timestamp>_<name>/migration.sql (ADR 0009), after regenerating
# prisma/postgresql/schema.prisma. `prisma migrate dev` cannot run here: its shadow database needs
# the native engines, and `--from-migrations` fails the same way with the driver adapter.
#   usage: scripts/new-migration.sh add_deliveries [REV]
set -euo pipefail
name=${1:?usage: scripts/new-migration.sh <name> [REV]}
rev=${2:-HEAD}
cd "$(dirname "$0")/.."
old=$(mktemp --suffix=.prisma)
old_pg=$(mktemp --suffix=.prisma)
trap 'rm -f "$old" "$old_pg"' EXIT
git show "$rev:prisma/schema.prisma" >"$old"
git show "$rev:prisma/postgresql/schema.prisma" >"$old_pg"
stamp=$(date -u +%Y%m%d%H%M%S)
dir="prisma/migrations/${stamp}_${name}"
mkdir -p "$dir"
npx prisma migrate diff --from-schema-datamodel "$old" --to-schema-datamodel prisma/schema.prisma \
  --script >"$dir/migration.sql"
echo "wrote $dir/migration.sql:"
cat "$dir/migration.sql"

npx tsx scripts/pg-schema.ts
pg_dir="prisma/postgresql/migrations/${stamp}_${name}"
mkdir -p "$pg_dir"
npx prisma migrate diff --config prisma/postgresql/prisma.config.ts \
  --from-schema-datamodel "$old_pg" --to-schema-datamodel prisma/postgresql/schema.prisma \
  --script >"$pg_dir/migration.sql"
echo "wrote $pg_dir/migration.sql:"
cat "$pg_dir/migration.sql"
