#pragma once

// The small JSON helpers the remoting bodies (route_data.cpp, broker_registration.cpp) share:
// error paths ("brokerDatas[0].brokerAddrs"), fastjson's absent-or-null members, string arrays
// and {key: [strings]} tables. Internal to broker/remoting/protocol.

#include "broker/common/json.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace mqdesk::remoting::bodyjson {

std::string memberPath(std::string_view path, std::string_view key);
std::string indexPath(std::string_view path, size_t index);
// Sets `error` to "<path>: <what>" and returns false.
bool fail(std::string &error, std::string_view path, std::string_view what);
// A member that is present and not null (fastjson omits nulls; a null leaves the default).
const common::JsonValue *member(const common::JsonValue &object, std::string_view key);
bool requireObject(const common::JsonValue &value, std::string_view path, std::string &error);
bool readStringArray(const common::JsonValue &array, std::string_view path, std::vector<std::string> &out,
                     std::string &error);
common::JsonValue stringArray(const std::vector<std::string> &values);
// A `{key: [strings]}` table such as filterServerTable or clusterAddrTable.
common::JsonValue stringListTable(const std::map<std::string, std::vector<std::string>> &table);
bool readStringListTable(const common::JsonValue &object, std::string_view key, std::string_view path,
                         std::map<std::string, std::vector<std::string>> &out, std::string &error);

} // namespace mqdesk::remoting::bodyjson
