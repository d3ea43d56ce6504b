#!/usr/bin/env bash
# Writes a large SQLite file shaped like a home-automation history (issue 26's 2, 5 and 10 GB
# benches): 600 entities with skewed use, 20 million+ state rows with numbers stored as text,
# JSON attributes with free text, ISO timestamps in insertion order. Uses the system sqlite3.
#
#   scripts/make-history-db.sh <GiB> <out.sqlite>
set -euo pipefail
gib=$1
out=$2
target=$((gib * 1024 * 1024 * 1024))
rm -f "$out"
sqlite3 "$out" <<'SQL'
PRAGMA page_size = 4096;
PRAGMA journal_mode = OFF;
CREATE TABLE entities (id INTEGER PRIMARY KEY, entity_id TEXT UNIQUE NOT NULL, area TEXT, kind TEXT);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 600)
INSERT INTO entities
SELECT i,
       (CASE i % 5 WHEN 0 THEN 'sensor.' WHEN 1 THEN 'light.' WHEN 2 THEN 'switch.' WHEN 3 THEN 'climate.' ELSE 'binary_sensor.' END)
         || (CASE i % 7 WHEN 0 THEN 'kitchen' WHEN 1 THEN 'hall' WHEN 2 THEN 'garage' WHEN 3 THEN 'bedroom' WHEN 4 THEN 'office' WHEN 5 THEN 'garden' ELSE 'attic' END)
         || '_' || i,
       CASE i % 7 WHEN 0 THEN 'Kitchen' WHEN 1 THEN 'Hall' WHEN 2 THEN 'Garage' WHEN 3 THEN 'Bedroom' WHEN 4 THEN 'Office' WHEN 5 THEN 'Garden' ELSE 'Attic' END,
       CASE i % 5 WHEN 0 THEN 'sensor' WHEN 1 THEN 'light' WHEN 2 THEN 'switch' WHEN 3 THEN 'climate' ELSE 'binary_sensor' END
FROM n;
CREATE TABLE states (
  state_id INTEGER PRIMARY KEY,
  entity INTEGER NOT NULL REFERENCES entities(id),
  state TEXT,
  attributes TEXT,
  last_updated TEXT NOT NULL
);
SQL
batch=1000000
done_rows=0
while [ "$(stat -c %s "$out")" -lt "$target" ]; do
  sqlite3 "$out" <<SQL
PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
WITH RECURSIVE n(i) AS (SELECT $done_rows + 1 UNION ALL SELECT i + 1 FROM n WHERE i < $done_rows + $batch)
INSERT INTO states
SELECT i,
       1 + (abs(random()) % 600) * (abs(random()) % 600) / 600,
       CASE abs(random()) % 5 WHEN 0 THEN 'on' WHEN 1 THEN 'off' WHEN 2 THEN 'unavailable' ELSE printf('%.1f', (abs(random()) % 4000) / 10.0 - 50) END,
       '{"friendly_name":"Device ' || (abs(random()) % 600) || '","unit":"' || (CASE abs(random()) % 3 WHEN 0 THEN '°C' WHEN 1 THEN '%' ELSE 'W' END)
         || '","note":"' || lower(hex(randomblob(16 + abs(random()) % 48))) || '"}',
       strftime('%Y-%m-%dT%H:%M:%S', 1600000000 + i * 3, 'unixepoch')
FROM n;
SQL
  done_rows=$((done_rows + batch))
done
echo "$out: $(stat -c %s "$out") bytes, $done_rows state rows"
