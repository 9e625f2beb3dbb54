// libFuzzer target: what a peer controls of access control (broker/acl's model). Byte 0 picks:
//   0: an AUTH_* body — Java's UserInfo / AclInfo JSON read; an ACL read back from its own
//      JSON must read again the same (aclToJson ∘ aclFromJson is stable);
//   1: a resource key ("Topic:orders*") and a source IP pattern, matched against a host;
//   else: a request — bytes 1–4 its code (big-endian; a code the table lacks picks a row by
//      its remainder), then "key=value" header lines up to a NUL, then the body — whose
//      checks buildChecks builds or refuses saying why.

#include "broker/acl/auth_model.h"
#include "broker/acl/request_table.h"
#include "broker/common/json.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/remoting_command.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

using namespace mqdesk;

namespace {

void authBodies(std::string_view text)
{
    const common::JsonParseResult parsed = common::parseJson(text);
    if (!parsed.ok())
        return;
    acl::User user;
    std::string error;
    if (!acl::userFromJson(parsed.value, user, error) && error.empty())
        std::abort();
    acl::Acl acl;
    error.clear();
    if (!acl::aclFromJson(parsed.value, acl, error)) {
        if (error.empty())
            std::abort();
        return;
    }
    acl::Acl again;
    if (!acl::aclFromJson(acl::aclToJson(acl), again, error))
        std::abort(); // what we write, we read
    if (common::toJsonCompact(acl::aclToJson(again)) != common::toJsonCompact(acl::aclToJson(acl)))
        std::abort();
}

void resourceAndIp(std::string_view text)
{
    const size_t split = text.find('\n');
    const std::string_view key = text.substr(0, split);
    const std::string_view rest = split == std::string_view::npos ? std::string_view() : text.substr(split + 1);
    acl::PolicyEntry entry;
    std::string error;
    if (acl::parseResource(key, entry, error)) {
        acl::PolicyEntry again;
        if (!acl::parseResource(entry.resourceKey(), again, error) || again.resourceKey() != entry.resourceKey())
            std::abort();
    } else if (error.empty()) {
        std::abort();
    }
    const size_t space = rest.find(' ');
    const std::string_view pattern = rest.substr(0, space);
    const std::string_view host = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
    if (acl::validSourceIp(pattern))
        (void)acl::sourceIpMatches(pattern, host);
}

void request(const uint8_t *data, size_t size)
{
    if (size < 4)
        return;
    const uint32_t code = uint32_t(data[0]) << 24 | uint32_t(data[1]) << 16 | uint32_t(data[2]) << 8 | data[3];
    const auto rules = acl::requestRules();
    const acl::RequestRule *found = acl::findRequestRule(static_cast<int32_t>(code));
    const acl::RequestRule &rule = found ? *found : rules[code % rules.size()];
    const std::string_view text(reinterpret_cast<const char *>(data + 4), size - 4);
    const size_t nul = text.find('\0');
    const std::string_view header = text.substr(0, nul);
    remoting::RemotingCommand command = remoting::RemotingCommand::createRequest(rule.code);
    size_t start = 0;
    while (start < header.size()) {
        size_t end = header.find('\n', start);
        if (end == std::string_view::npos)
            end = header.size();
        const std::string_view line = header.substr(start, end - start);
        const size_t eq = line.find('=');
        if (eq != std::string_view::npos)
            remoting::setField(command.extFields, std::string(line.substr(0, eq)), std::string(line.substr(eq + 1)));
        start = end + 1;
    }
    if (nul != std::string_view::npos)
        command.body.assign(text.begin() + static_cast<std::ptrdiff_t>(nul) + 1, text.end());
    std::vector<acl::Check> checks;
    const std::optional<std::string> refused = acl::buildChecks(rule, command, "DefaultCluster", checks);
    if (refused && refused->empty())
        std::abort(); // a refusal names why
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const std::string_view text(reinterpret_cast<const char *>(data + 1), size - 1);
    switch (data[0] % 3) {
    case 0: authBodies(text); break;
    case 1: resourceAndIp(text); break;
    default: request(data + 1, size - 1); break;
    }
    return 0;
}
