#include "broker/acl/plain_acl_config.h"

#include <yaml.h>

#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <variant>

namespace mqdesk::acl {

namespace {

constexpr size_t kMinKeyLength = 6; // AclConstants.ACCESS_KEY_MIN_LENGTH / SECRET_KEY_MIN_LENGTH
constexpr int kMaxDepth = 16;       // plain_acl.yml needs 4; deeper input is refused, not recursed into

// A YAML node: scalar, sequence or mapping (keys are scalars), with its line for errors.
struct Node
{
    enum class Kind { Scalar, Sequence, Mapping } kind = Kind::Scalar;
    std::string scalar;
    bool plainNull = false; // `key:` with nothing after it (YAML null)
    std::vector<Node> items;
    std::vector<Node> members; // a mapping's values, each with its key in memberKey
    std::string memberKey;
    size_t line = 0;

    const Node *member(std::string_view key) const
    {
        for (const Node &value : members) {
            if (value.memberKey == key)
                return &value;
        }
        return nullptr;
    }
};

class YamlReader
{
public:
    YamlReader(std::string_view text, std::string name) : name_(std::move(name))
    {
        yaml_parser_initialize(&parser_);
        yaml_parser_set_input_string(&parser_, reinterpret_cast<const unsigned char *>(text.data()), text.size());
    }
    ~YamlReader() { yaml_parser_delete(&parser_); }
    YamlReader(const YamlReader &) = delete;
    YamlReader &operator=(const YamlReader &) = delete;

    // The first document's root; an empty file gives an empty mapping.
    bool read(Node &root, std::string &error)
    {
        Event event;
        while (next(event, error)) {
            switch (event.get().type) {
            case YAML_STREAM_START_EVENT:
            case YAML_DOCUMENT_START_EVENT:
                continue;
            case YAML_STREAM_END_EVENT:
                root = Node();
                root.kind = Node::Kind::Mapping;
                return true;
            default:
                return build(event, root, 0, error);
            }
        }
        return false;
    }

private:
    class Event
    {
    public:
        Event() = default;
        ~Event() { reset(); }
        Event(const Event &) = delete;
        Event &operator=(const Event &) = delete;
        yaml_event_t &get() { return event_; }
        void reset()
        {
            if (valid_)
                yaml_event_delete(&event_);
            valid_ = false;
        }
        void markValid() { valid_ = true; }

    private:
        yaml_event_t event_{};
        bool valid_ = false;
    };

    bool next(Event &event, std::string &error)
    {
        event.reset();
        if (!yaml_parser_parse(&parser_, &event.get())) {
            error = name_ + ":" + std::to_string(parser_.problem_mark.line + 1) + ": "
                    + (parser_.problem ? parser_.problem : "YAML syntax error");
            return false;
        }
        event.markValid();
        return true;
    }

    bool build(Event &event, Node &node, int depth, std::string &error)
    {
        node.line = event.get().start_mark.line + 1;
        if (depth > kMaxDepth) {
            error = name_ + ":" + std::to_string(node.line) + ": nested deeper than " + std::to_string(kMaxDepth);
            return false;
        }
        switch (event.get().type) {
        case YAML_SCALAR_EVENT: {
            const auto &scalar = event.get().data.scalar;
            node.kind = Node::Kind::Scalar;
            node.scalar.assign(reinterpret_cast<const char *>(scalar.value), scalar.length);
            node.plainNull = scalar.plain_implicit
                             && (node.scalar.empty() || node.scalar == "~" || node.scalar == "null" || node.scalar == "Null"
                                 || node.scalar == "NULL");
            return true;
        }
        case YAML_SEQUENCE_START_EVENT:
            node.kind = Node::Kind::Sequence;
            while (next(event, error)) {
                if (event.get().type == YAML_SEQUENCE_END_EVENT)
                    return true;
                node.items.emplace_back();
                if (!build(event, node.items.back(), depth + 1, error))
                    return false;
            }
            return false;
        case YAML_MAPPING_START_EVENT:
            node.kind = Node::Kind::Mapping;
            while (next(event, error)) {
                if (event.get().type == YAML_MAPPING_END_EVENT)
                    return true;
                Node key;
                if (!build(event, key, depth + 1, error))
                    return false;
                if (key.kind != Node::Kind::Scalar) {
                    error = name_ + ":" + std::to_string(key.line) + ": a mapping key must be a plain value";
                    return false;
                }
                if (!next(event, error))
                    return false;
                node.members.emplace_back().memberKey = key.scalar;
                if (!build(event, node.members.back(), depth + 1, error))
                    return false;
            }
            return false;
        case YAML_ALIAS_EVENT:
            error = name_ + ":" + std::to_string(node.line) + ": YAML aliases are not supported here";
            return false;
        default:
            error = name_ + ":" + std::to_string(node.line) + ": unexpected YAML content";
            return false;
        }
    }

    yaml_parser_t parser_{};
    std::string name_;
};

// SnakeYAML's booleans (YAML 1.1).
std::optional<bool> parseBool(const std::string &text)
{
    for (const char *yes : {"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"}) {
        if (text == yes)
            return true;
    }
    for (const char *no : {"false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"}) {
        if (text == no)
            return false;
    }
    return std::nullopt;
}

class AccountReader
{
public:
    AccountReader(const std::string &name, const Node &node, size_t index)
        : where_(name + ":" + std::to_string(node.line) + ": accounts[" + std::to_string(index) + "]"), node_(node)
    {
    }

    bool read(PlainAccount &account, std::string &error)
    {
        if (node_.kind != Node::Kind::Mapping)
            return fail("is not a mapping of accessKey, secretKey, ...", error);
        std::string whiteRemoteAddress, defaultTopicPerm, defaultGroupPerm, admin;
        if (!scalar("accessKey", account.accessKey, error) || !scalar("secretKey", account.secretKey, error)
            || !scalar("whiteRemoteAddress", whiteRemoteAddress, error) || !scalar("admin", admin, error)
            || !scalar("defaultTopicPerm", defaultTopicPerm, error) || !scalar("defaultGroupPerm", defaultGroupPerm, error)) {
            return false;
        }
        // PlainPermissionManager.checkPlainAccessConfig (the secret itself is not echoed).
        if (account.accessKey.size() <= kMinKeyLength || account.secretKey.size() <= kMinKeyLength) {
            return fail("accessKey=" + account.accessKey
                            + ": the accessKey and secretKey cannot be null and length should longer than 6",
                        error);
        }
        if (!admin.empty()) {
            const auto value = parseBool(admin);
            if (!value)
                return fail("admin: '" + admin + "' is not true or false", error);
            account.admin = *value;
        }
        if (!defaultTopicPerm.empty())
            account.defaultTopicPerm = parsePerm(defaultTopicPerm);
        if (!defaultGroupPerm.empty())
            account.defaultGroupPerm = parsePerm(defaultGroupPerm);
        std::string addressError;
        const auto strategy = RemoteAddressStrategy::parse(whiteRemoteAddress, addressError);
        if (!strategy)
            return fail("whiteRemoteAddress: " + addressError, error);
        account.whiteRemoteAddress = *strategy;
        // Groups first, then topics, as buildPlainAccessResource adds them.
        return resources("groupPerms", false, account, error) && resources("topicPerms", true, account, error);
    }

private:
    bool fail(const std::string &message, std::string &error)
    {
        error = where_ + ": " + message;
        return false;
    }

    bool scalar(std::string_view key, std::string &out, std::string &error)
    {
        const Node *value = node_.member(key);
        if (!value || value->plainNull)
            return true;
        if (value->kind != Node::Kind::Scalar)
            return fail(std::string(key) + " must be a single value", error);
        out = value->scalar;
        return true;
    }

    // Permission.parseResourcePerms: "name=PERM" items, name and perm trimmed.
    bool resources(std::string_view key, bool isTopic, PlainAccount &account, std::string &error)
    {
        const Node *list = node_.member(key);
        if (!list || list->plainNull)
            return true;
        if (list->kind != Node::Kind::Sequence)
            return fail(std::string(key) + " must be a list of name=PERM", error);
        for (const Node &item : list->items) {
            std::vector<std::string> parts;
            if (item.kind == Node::Kind::Scalar) {
                std::string_view text = item.scalar;
                size_t begin = 0;
                while (begin <= text.size()) { // StringUtils.split(resource, "="): empty tokens dropped
                    const size_t end = text.find('=', begin);
                    const std::string_view part = text.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin);
                    if (!part.empty())
                        parts.emplace_back(part);
                    if (end == std::string_view::npos)
                        break;
                    begin = end + 1;
                }
            }
            if (parts.size() != 2) {
                return fail(std::string("Parse resource permission failed for ") + (isTopic ? "topic:" : "group:")
                                + item.scalar,
                            error);
            }
            const auto trimmed = [](const std::string &s) {
                const size_t b = s.find_first_not_of(" \t");
                const size_t e = s.find_last_not_of(" \t");
                return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
            };
            const std::string name = trimmed(parts[0]);
            account.resourcePerms[isTopic ? name : "%RETRY%" + name] = parsePerm(trimmed(parts[1]));
        }
        return true;
    }

    std::string where_;
    const Node &node_;
};

} // namespace

uint8_t parsePerm(std::string_view text)
{
    const size_t begin = text.find_first_not_of(" \t");
    const size_t end = text.find_last_not_of(" \t");
    const std::string_view trimmed = begin == std::string_view::npos ? std::string_view() : text.substr(begin, end - begin + 1);
    if (trimmed == "PUB")
        return perm::kPub;
    if (trimmed == "SUB")
        return perm::kSub;
    if (trimmed == "PUB|SUB" || trimmed == "SUB|PUB")
        return perm::kPub | perm::kSub;
    return perm::kDeny;
}

bool checkPermission(uint8_t needed, uint8_t owned)
{
    if (owned & perm::kDeny)
        return false;
    if (needed & perm::kAny)
        return (owned & (perm::kPub | perm::kSub)) != 0;
    return (needed & owned) != 0;
}

bool PlainAclConfig::parse(std::string_view text, const std::string &name, PlainAclConfig &out, std::string &error)
{
    Node root;
    YamlReader reader(text, name);
    if (!reader.read(root, error))
        return false;
    if (root.kind == Node::Kind::Scalar && root.plainNull)
        root.kind = Node::Kind::Mapping; // a file of comments only
    if (root.kind != Node::Kind::Mapping) {
        error = name + ":" + std::to_string(root.line) + ": the top level must be a mapping (globalWhiteRemoteAddresses, accounts)";
        return false;
    }
    PlainAclConfig config;
    if (const Node *whites = root.member("globalWhiteRemoteAddresses"); whites && !whites->plainNull) {
        if (whites->kind != Node::Kind::Sequence) {
            error = name + ":" + std::to_string(whites->line) + ": globalWhiteRemoteAddresses must be a list";
            return false;
        }
        for (const Node &item : whites->items) {
            std::string addressError;
            const auto strategy = item.kind == Node::Kind::Scalar ? RemoteAddressStrategy::parse(item.scalar, addressError)
                                                                  : std::nullopt;
            if (!strategy) {
                error = name + ":" + std::to_string(item.line) + ": globalWhiteRemoteAddresses: "
                        + (addressError.empty() ? "an entry must be a single address pattern" : addressError);
                return false;
            }
            config.globalWhiteRemoteAddresses.push_back(*strategy);
        }
    }
    if (const Node *accounts = root.member("accounts"); accounts && !accounts->plainNull) {
        if (accounts->kind != Node::Kind::Sequence) {
            error = name + ":" + std::to_string(accounts->line) + ": accounts must be a list";
            return false;
        }
        for (size_t i = 0; i < accounts->items.size(); ++i) {
            PlainAccount account;
            if (!AccountReader(name, accounts->items[i], i).read(account, error))
                return false;
            config.accounts.emplace(account.accessKey, std::move(account)); // the first one wins
        }
    }
    out = std::move(config);
    return true;
}

bool PlainAclConfig::load(const std::string &path, PlainAclConfig &out, std::string &error)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = "cannot read " + path;
        return false;
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) {
        error = "cannot read " + path;
        return false;
    }
    return parse(text.str(), path, out, error);
}

} // namespace mqdesk::acl
