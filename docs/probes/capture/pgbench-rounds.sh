#!/bin/bash
# pgbench rounds, 8 clients, prepared: ./pgbench-rounds.sh <seconds> <rounds> <script without .sql>... (database capprobe_pg, see setup.sql)
# usage: run.sh seconds rounds variant...
secs=$1; rounds=$2; shift 2
echo "start $(date -u +%FT%TZ) $(uptime)"
for r in $(seq 1 $rounds); do
  line="round $r:"
  for v in "$@"; do
    tps=$(pgbench -h 127.0.0.1 -U postgres -n -M prepared -c 8 -j 2 -T $secs -f $v.sql capprobe_pg 2>&1 | grep -oP 'tps = \K[0-9.]+' | head -1)
    line="$line $v=${tps%.*}"
  done
  echo "$line"
done
echo "end $(date -u +%FT%TZ) $(uptime)"
