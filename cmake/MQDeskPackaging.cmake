# The Debian package: `cmake --build build/release --target package` writes
# build/release/mqdesk_<version>_<arch>.deb from the install rules (the programs, the desktop
# entry, the icon, the README), installed under /usr.
#
# Depends is what dpkg-shlibdeps finds the programs linked against (Qt, QCustomPlot, zlib, spdlog,
# fmt, OpenSSL, libyaml, the C and C++ runtimes), plus the Qt plugins the app loads at run time,
# which no linker sees: the SQLite driver for the console's history and the SVG icon engine for the
# window icon. The platform plugins (xcb, offscreen) come with libqt6gui6, already a shlib dependency.
# tests/install/tst_deb_package builds the package, checks it and runs the programs from it.

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME mqdesk)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR MQDesk)
set(CPACK_PACKAGE_CONTACT "MQDesk maintainers <maintainers@mqdesk.invalid>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "RocketMQ-compatible broker with a desktop console")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "RocketMQ-compatible broker with a desktop console\n"
    "MQDesk embeds an Apache RocketMQ-compatible NameServer and broker (RocketMQ's store format\n"
    "and wire protocol) in one process with a Qt console attached: topics, consumer groups,\n"
    "messages, flush behaviour and a visual explorer of RocketMQ store directories. Also\n"
    "installs mqdesk-broker (headless), mqdesk-admin and mqdesk-bench.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6sql6-sqlite, libqt6svg6")
# The zh_CN interface wants a CJK font; the app runs without one.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fonts-wqy-microhei")
# Only the programs and their data: no headers, static libraries or test files are installed.
set(CPACK_DEB_COMPONENT_INSTALL OFF)
include(CPack)
