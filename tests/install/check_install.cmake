# Installs BUILD_DIR into PREFIX and checks the result: fails (message(FATAL_ERROR)) naming the
# first file that is missing or the program that does not run.
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND ${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${PREFIX}"
                RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${result}):\n${output}")
endif()

include(GNUInstallDirs)
set(expected
  ${CMAKE_INSTALL_BINDIR}/mqdesk
  ${CMAKE_INSTALL_BINDIR}/mqdesk-broker
  ${CMAKE_INSTALL_BINDIR}/mqdesk-admin
  ${CMAKE_INSTALL_BINDIR}/mqdesk-bench
  ${CMAKE_INSTALL_DATADIR}/applications/mqdesk.desktop
  ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps/mqdesk.svg
  ${CMAKE_INSTALL_DATADIR}/doc/MQDesk/README.md)
foreach(path IN LISTS expected)
  if(NOT EXISTS "${PREFIX}/${path}")
    message(FATAL_ERROR "not installed: ${PREFIX}/${path}\ninstall log:\n${output}")
  endif()
endforeach()

# The installed programs start and answer --help (no store, no ports, no display needed).
foreach(program mqdesk mqdesk-broker mqdesk-admin mqdesk-bench)
  execute_process(COMMAND "${PREFIX}/${CMAKE_INSTALL_BINDIR}/${program}" --help
                  RESULT_VARIABLE result OUTPUT_VARIABLE help ERROR_VARIABLE help TIMEOUT 30)
  if(NOT result EQUAL 0 OR help STREQUAL "")
    message(FATAL_ERROR "${program} --help from ${PREFIX} exited with ${result}:\n${help}")
  endif()
endforeach()

# The desktop entry names the installed program and icon, and passes the spec's validator when
# desktop-file-utils is installed.
file(READ "${PREFIX}/${CMAKE_INSTALL_DATADIR}/applications/mqdesk.desktop" entry)
if(NOT entry MATCHES "\nExec=mqdesk\n" OR NOT entry MATCHES "\nIcon=mqdesk\n")
  message(FATAL_ERROR "mqdesk.desktop does not run mqdesk with the mqdesk icon:\n${entry}")
endif()
find_program(DESKTOP_FILE_VALIDATE desktop-file-validate)
if(DESKTOP_FILE_VALIDATE)
  execute_process(COMMAND ${DESKTOP_FILE_VALIDATE} "${PREFIX}/${CMAKE_INSTALL_DATADIR}/applications/mqdesk.desktop"
                  RESULT_VARIABLE result OUTPUT_VARIABLE report ERROR_VARIABLE report)
  if(NOT result EQUAL 0 OR NOT report STREQUAL "")
    message(FATAL_ERROR "desktop-file-validate: ${report}")
  endif()
endif()
message(STATUS "installed and checked in ${PREFIX}")
