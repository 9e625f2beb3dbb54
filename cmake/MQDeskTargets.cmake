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

# mqdesk_add_library(name SOURCES...) — a static library of ours with the shared flags.
function(mqdesk_add_library name)
  add_library(${name} STATIC ${ARGN})
  target_link_libraries(${name} PUBLIC mqdesk_build_flags)
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR})
endfunction()
