#!/usr/bin/env bash
# Builds the back end of Apache RocketMQ Dashboard 2.1.0 (third party, see shared/thirdparty/README.md)
# from its release source, for the interop harness in this directory.
#
#   build.sh OUTDIR      prints the path of the Spring Boot jar on stdout (nothing else)
#
# OUTDIR (a build/cache directory, e.g. build/release/tests/interop/dashboard) gets:
#   rocketmq-dashboard-2.1.0/          the unpacked release source (never copied into the project)
#   rocketmq-dashboard-2.1.0/target/rocketmq-dashboard-2.1.0.jar
#   lib/                               the jar's BOOT-INF/lib (RocketMQ 5.3.3 client & deps), the
#                                      classpath of traffic.java
#   build.log                          Maven's output
# Idempotent: when the jar and lib/ are there it only prints the path.
#
# Only the Java back end is built: the React front end needs Node from nodejs.org (the
# frontend-maven-plugin downloads it), so its executions are skipped with -Dskip.installnodenpm
# -Dskip.npm, and the antrun copy of frontend-new/build (absent from the release source) with
# -Dmaven.antrun.skip. The dashboard's sources are not edited.
#
# Environment: DASHBOARD_TARBALL (default: shared/thirdparty/rocketmq-dashboard-2.1.0-src.tar.gz
# beside the repository), MVN (default mvn), MAVEN_OPTS (default
# -Xmx512m), DASHBOARD_MVN_ARGS (extra Maven arguments, e.g. -o).
set -euo pipefail

if [[ $# -ne 1 ]]; then
  echo "usage: $0 OUTDIR" >&2
  exit 2
fi
mkdir -p "$1"
out=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
name=rocketmq-dashboard-2.1.0
src=$out/$name
jar=$src/target/$name.jar
lib=$out/lib

if [[ -f $jar && -f $lib/.complete ]]; then
  echo "$jar"
  exit 0
fi

tarball=${DASHBOARD_TARBALL:-}
if [[ -z $tarball ]]; then
  for t in "$here/../../../../shared/thirdparty/$name-src.tar.gz"; do
    if [[ -f $t ]]; then tarball=$t; break; fi
  done
fi
if [[ -z $tarball || ! -f $tarball ]]; then
  echo "build.sh: $name-src.tar.gz not found (set DASHBOARD_TARBALL)" >&2
  exit 2
fi

# One build at a time per OUTDIR (parallel ctest runs).
exec 9>"$out/.build.lock"
flock 9
if [[ -f $jar && -f $lib/.complete ]]; then
  echo "$jar"
  exit 0
fi

if [[ ! -f $src/pom.xml ]]; then
  rm -rf "$src.tmp"
  mkdir -p "$src.tmp"
  tar -xzf "$tarball" -C "$src.tmp"
  # The archive holds one top directory, rocketmq-dashboard-2.1.0/.
  if [[ -f $src.tmp/$name/pom.xml ]]; then
    mv "$src.tmp/$name" "$src"
    rmdir "$src.tmp"
  else
    mv "$src.tmp" "$src"
  fi
fi

if [[ ! -f $jar ]]; then
  start=$(date +%s)
  if ! (cd "$src" && MAVEN_OPTS=${MAVEN_OPTS:--Xmx512m} ${MVN:-mvn} -B -q \
      -Dmaven.test.skip=true -DskipTests -Dmaven.javadoc.skip=true -Dcheckstyle.skip=true \
      -Drat.skip=true -Djacoco.skip=true -Dspotbugs.skip=true -Dfindbugs.skip=true \
      -Dskip.installnodenpm=true -Dskip.npm=true -Dmaven.antrun.skip=true -Ddocker.skip=true \
      -Dmaven.source.skip=true -Dremoteresources.skip=true \
      ${DASHBOARD_MVN_ARGS:-} package) >"$out/build.log" 2>&1; then
    echo "build.sh: Maven failed; the end of $out/build.log:" >&2
    tail -n 40 "$out/build.log" >&2
    exit 1
  fi
  echo "build.sh: built $jar in $(( $(date +%s) - start )) s" >&2
fi

rm -rf "$lib"
mkdir -p "$lib"
# The jar's libraries, flat (python3 rather than unzip, which a fresh Debian lacks).
python3 - "$jar" "$lib" <<'PY'
import os, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as jar:
    for entry in jar.namelist():
        if entry.startswith("BOOT-INF/lib/") and entry.endswith(".jar"):
            with jar.open(entry) as src, open(os.path.join(sys.argv[2], os.path.basename(entry)), "wb") as dst:
                dst.write(src.read())
PY
touch "$lib/.complete"
echo "$jar"
