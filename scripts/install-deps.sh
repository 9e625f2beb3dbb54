#!/usr/bin/env bash
# Installs every Debian 12 package MQDesk needs to build, run and test, skipping what is present.
# Safe to run repeatedly; needs root (or sudo) only when something is missing.
set -euo pipefail

packages=(
  # build
  build-essential cmake ninja-build ccache pkg-config
  # engine
  zlib1g-dev libcli11-dev libspdlog-dev libfmt-dev libasio-dev
  # ACL (broker/acl): HMAC-SHA1 request signatures, plain_acl.yml
  libssl-dev libyaml-dev
  # the RocketMQ 5 gRPC endpoint (broker/grpc): grpc++ 1.51, protobuf 3.21 and their code generators;
  # the protos themselves come from npm at configure time (cmake/RocketMQApis.cmake)
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
  # Qt (tests use Qt Test; the desktop app comes later)
  qt6-base-dev
  # the console's history database: Qt SQL's QSQLITE driver plugin (only a Recommends of libqt6sql6,
  # so --no-install-recommends would leave it out; Qt6Sql's CMake package is in qt6-base-dev)
  libqt6sql6-sqlite
  # the desktop app's live charts (CMake package QCustomPlotQt6; pulls in Qt 5 dev packages too)
  libqcustomplot-dev
  # the SVG icon engine (QIcon from resources/mqdesk.svg)
  qt6-svg-dev
  # the console's saved secret keys in the desktop's keyring (QtKeychain: Secret Service / KWallet);
  # the tests run a private D-Bus session with gnome-keyring's Secret Service to prove it
  qtkeychain-qt6-dev gnome-keyring dbus
  # translations: Qt6LinguistTools (CMake), lupdate/lrelease (qt6-translations-l10n, Qt's own
  # zh_CN strings for standard dialogs, is optional)
  qt6-tools-dev qt6-l10n-tools
  # the fonts the app chooses (ui/widgets/app_fonts.h): DejaVu Sans Mono for code and hex,
  # WenQuanYi Micro Hei for Chinese; fonts-noto-mono is what many desktops have, whose
  # "monospace" is not fixed-pitch to fontconfig: tst_ui_fonts proves the choice on it
  fonts-dejavu-core fonts-wqy-microhei fonts-noto-mono
  # conformance tests (tests/conformance: the ali-ons client from npm, run by node)
  nodejs npm
  # conformance tests (tests/conformance/python: the RocketMQ 5 Python SDK from PyPI, in a venv)
  python3 python3-venv
  # interop tests (tests/interop: the RocketMQ Java client, mqadmin and broker from Maven Central)
  openjdk-17-jdk-headless maven
  # interop tests (tests/interop/go: the RocketMQ Go client from the Go module proxy); Debian 12's
  # golang-go is Go 1.19, which go.mod's `go 1.19` directive and the pinned client build with
  golang-go
  # the fuzz preset: clang with libFuzzer and the sanitizer runtimes (scripts/fuzz.sh, test.sh)
  clang-14 libclang-rt-14-dev
  # tests/install checks the installed desktop entry with desktop-file-validate
  desktop-file-utils
)

missing=()
for p in "${packages[@]}"; do
  # NodeSource's nodejs package ships npm itself and conflicts with Debian's npm package.
  if [[ $p == npm ]] && command -v npm >/dev/null; then continue; fi
  # A JDK or Maven installed outside Debian's packages (Temurin, SDKMAN) serves as well.
  if [[ $p == openjdk-17-jdk-headless ]] && command -v javac >/dev/null; then continue; fi
  if [[ $p == maven ]] && command -v mvn >/dev/null; then continue; fi
  # A Go toolchain installed outside Debian's packages (an official tarball in /usr/local/go) serves as
  # well; CMake checks that it is Go 1.19 or newer.
  if [[ $p == golang-go ]] && command -v go >/dev/null; then continue; fi
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
