# The RocketMQ 5 gRPC API (apache.rocketmq.v2: definition.proto and service.proto, the
# rocketmq-apis interface the 5.x SDKs speak; grpc-proxy spec §0). MQDesk does not keep a copy:
# they are taken, pinned by SHA-256, from the rocketmq-client-nodejs package on npm, which ships
# them, into a cache shared by every build tree ($XDG_CACHE_HOME/mqdesk or ~/.cache/mqdesk).
# Set MQDESK_ROCKETMQ_APIS_DIR to a directory holding apache/rocketmq/v2/*.proto to use others.
#
# Sets MQDESK_ROCKETMQ_APIS_DIR (the proto root) or stops with what to do.

set(_apis_package rocketmq-client-nodejs)
set(_apis_version 1.0.8)
set(_apis_sha256_definition 3c95946d758cb0b321d5810a60de43224e6709529af329de1d46be6c76690bf9)
set(_apis_sha256_service 414f26ecb211ee2e817ed4dda39dd7aadc100789b93cb89b58ed6c45dc5f74ec)

if(DEFINED ENV{XDG_CACHE_HOME} AND NOT "$ENV{XDG_CACHE_HOME}" STREQUAL "")
  set(_apis_cache "$ENV{XDG_CACHE_HOME}/mqdesk")
else()
  set(_apis_cache "$ENV{HOME}/.cache/mqdesk")
endif()
set(MQDESK_ROCKETMQ_APIS_DIR "${_apis_cache}/rocketmq-apis-${_apis_package}-${_apis_version}" CACHE PATH
  "Root of apache/rocketmq/v2/{definition,service}.proto")

function(_mqdesk_apis_valid dir result)
  set(ok TRUE)
  foreach(name definition service)
    set(file "${dir}/apache/rocketmq/v2/${name}.proto")
    if(NOT EXISTS "${file}")
      set(ok FALSE)
      break()
    endif()
    file(SHA256 "${file}" sum)
    if(NOT sum STREQUAL "${_apis_sha256_${name}}")
      message(WARNING "${file}: SHA-256 ${sum}, expected ${_apis_sha256_${name}}")
      set(ok FALSE)
    endif()
  endforeach()
  set(${result} ${ok} PARENT_SCOPE)
endfunction()

_mqdesk_apis_valid("${MQDESK_ROCKETMQ_APIS_DIR}" _apis_ok)
if(NOT _apis_ok)
  find_program(MQDESK_NPM_EXECUTABLE npm)
  if(NOT MQDESK_NPM_EXECUTABLE)
    message(FATAL_ERROR "The RocketMQ 5 gRPC protos are not in ${MQDESK_ROCKETMQ_APIS_DIR} and npm is "
      "missing to fetch them (${_apis_package}@${_apis_version}): run scripts/install-deps.sh, or set "
      "MQDESK_ROCKETMQ_APIS_DIR, or configure with -DMQDESK_GRPC=OFF")
  endif()
  set(_apis_work "${_apis_cache}/download-${_apis_version}")
  file(REMOVE_RECURSE "${_apis_work}")
  file(MAKE_DIRECTORY "${_apis_work}")
  message(STATUS "Fetching the RocketMQ 5 gRPC protos from npm (${_apis_package}@${_apis_version})")
  execute_process(COMMAND "${MQDESK_NPM_EXECUTABLE}" pack "${_apis_package}@${_apis_version}" --silent
    WORKING_DIRECTORY "${_apis_work}" RESULT_VARIABLE _apis_rc OUTPUT_VARIABLE _apis_out ERROR_VARIABLE _apis_err)
  file(GLOB _apis_tgz "${_apis_work}/*.tgz")
  if(NOT _apis_rc EQUAL 0 OR NOT _apis_tgz)
    message(FATAL_ERROR "npm pack ${_apis_package}@${_apis_version} failed (${_apis_rc}): ${_apis_err}\n"
      "The gRPC endpoint needs its protos; set MQDESK_ROCKETMQ_APIS_DIR, or configure with -DMQDESK_GRPC=OFF")
  endif()
  file(ARCHIVE_EXTRACT INPUT "${_apis_tgz}" DESTINATION "${_apis_work}"
    PATTERNS package/proto/apache/rocketmq/v2/definition.proto package/proto/apache/rocketmq/v2/service.proto)
  file(MAKE_DIRECTORY "${MQDESK_ROCKETMQ_APIS_DIR}/apache/rocketmq/v2")
  foreach(name definition service)
    file(COPY "${_apis_work}/package/proto/apache/rocketmq/v2/${name}.proto"
      DESTINATION "${MQDESK_ROCKETMQ_APIS_DIR}/apache/rocketmq/v2")
  endforeach()
  file(REMOVE_RECURSE "${_apis_work}")
  _mqdesk_apis_valid("${MQDESK_ROCKETMQ_APIS_DIR}" _apis_ok)
  if(NOT _apis_ok)
    message(FATAL_ERROR "The protos fetched into ${MQDESK_ROCKETMQ_APIS_DIR} are not the pinned ones")
  endif()
endif()
