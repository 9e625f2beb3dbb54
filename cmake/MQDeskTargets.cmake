# Compile settings shared by every MQDesk target. Warnings are errors for our code only:
# third-party headers come in as SYSTEM includes through their imported targets.
add_library(mqdesk_build_flags INTERFACE)
target_compile_options(mqdesk_build_flags INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align -Woverloaded-virtual
  -Wimplicit-fallthrough -Werror)

# g++ 12 at -O3 reports `"literal" + std::string` as an overlapping memcpy (GCC PR 105329, a
# false positive fixed in g++ 13); keep the warning for other compilers.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(mqdesk_build_flags INTERFACE -Wno-restrict)
endif()

if(MQDESK_SANITIZE)
  target_compile_options(mqdesk_build_flags INTERFACE
    -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
  target_link_options(mqdesk_build_flags INTERFACE -fsanitize=address,undefined)
endif()

# ThreadSanitizer (the tsan preset). Qt and glibc are not instrumented: their own locks (QTest's
# watchdog QWaitCondition, glibc's tzset lock under mktime) are invisible to TSan, so the preset
# runs with TSAN_OPTIONS=ignore_noninstrumented_modules=1, which drops reports of calls made from
# those libraries while every access from our code is still checked.
if(MQDESK_TSAN)
  if(MQDESK_SANITIZE)
    message(FATAL_ERROR "MQDESK_TSAN and MQDESK_SANITIZE cannot be combined (TSan excludes ASan)")
  endif()
  target_compile_options(mqdesk_build_flags INTERFACE -fsanitize=thread -fno-omit-frame-pointer)
  target_link_options(mqdesk_build_flags INTERFACE -fsanitize=thread)
  # g++ warns that TSan does not model the atomic_thread_fence in Asio's handler recycling; a
  # race it hides would still show as a report on the handler's data, so not an error here.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(mqdesk_build_flags INTERFACE -Wno-tsan)
  endif()
endif()

# libFuzzer (the fuzz preset, clang): the libraries get coverage instrumentation without
# libFuzzer's main(); tests/fuzz links each target with -fsanitize=fuzzer.
if(MQDESK_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "MQDESK_FUZZ needs clang (libFuzzer); configure with the fuzz preset")
  endif()
  target_compile_options(mqdesk_build_flags INTERFACE
    -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
    -fno-omit-frame-pointer)
  target_link_options(mqdesk_build_flags INTERFACE -fsanitize=address,undefined)
endif()

# The fuzz targets beside the sanitizer suites (asan preset): the libraries get libFuzzer's
# coverage instrumentation too (the suites, linked without libFuzzer, run with the sanitizer
# runtime's no-op coverage callbacks).
if(MQDESK_FUZZ_TARGETS)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang" OR NOT MQDESK_SANITIZE)
    message(FATAL_ERROR "MQDESK_FUZZ_TARGETS needs clang and MQDESK_SANITIZE (the asan preset)")
  endif()
  target_compile_options(mqdesk_build_flags INTERFACE -fsanitize=fuzzer-no-link)
endif()

# Libraries compile as unity builds (a few sources per translation unit, the headers parsed once
# for them): on 2 cores that halves their build. Every .cpp must therefore keep its file-local
# names distinct from its neighbours' (a shared helper belongs in a header): the same name twice
# fails to compile, but two overloads of one name (or a file-scope `using namespace`) would
# silently meet in one unit, so file-local helpers get names that say what they do. Test
# executables are not unity builds: their helpers repeat names from file to file.
option(MQDESK_UNITY_BUILD "Compile the libraries as unity builds" ON)

# mqdesk_add_library(name SOURCES...) — a static library of ours with the shared flags.
function(mqdesk_add_library name)
  add_library(${name} STATIC ${ARGN})
  set_target_properties(${name} PROPERTIES UNITY_BUILD ${MQDESK_UNITY_BUILD})
  # g++ warns of a class that uses an anonymous-namespace type when the class is defined in an
  # included file, which every source of a unity build is; the use is the file's own either way.
  if(MQDESK_UNITY_BUILD AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(${name} PRIVATE -Wno-subobject-linkage)
  endif()
  target_link_libraries(${name} PUBLIC mqdesk_build_flags)
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR})
endfunction()
