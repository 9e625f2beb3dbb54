#!/usr/bin/env bash
# Runs one Java interop scenario: run.sh <module> <Scenario> <path/to/mqdesk-broker>
# with the module's classes and runtime classpath (written by `mvn package`, see pom.xml).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
module=$1; shift
cp_file=$here/$module/target/classpath.txt
if [[ ! -f $cp_file ]]; then
  echo "run.sh: $cp_file is missing: build the interop modules first (mvn -B -q -f $here/pom.xml package)" >&2
  exit 2
fi
exec java -Xmx384m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
  -cp "$here/$module/target/classes:$(cat "$cp_file")" mqdesk.interop.harness.Main "$@"
