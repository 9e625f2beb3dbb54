#include "broker/store/store_paths.h"

#include <filesystem>

namespace mqdesk::store {

namespace {

constexpr size_t kMaxComponentBytes = 255; // NAME_MAX on Linux file systems

// The name as a log can show it: control bytes (NUL included) escaped.
std::string printable(std::string_view name)
{
    std::string out;
    for (const char c : name.substr(0, 300)) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte == 0x7F) {
            static constexpr char kHex[] = "0123456789abcdef";
            out += "\\x";
            out += kHex[byte >> 4];
            out += kHex[byte & 0xF];
        } else {
            out += c;
        }
    }
    if (name.size() > 300)
        out += "...";
    return out;
}

} // namespace

std::string unsafePathComponentReason(std::string_view name)
{
    if (name.empty())
        return "it is empty";
    if (name == "." || name == "..")
        return "it is '" + std::string(name) + "'";
    if (name.find('/') != std::string_view::npos)
        return "it holds '/'";
    if (name.find('\0') != std::string_view::npos)
        return "it holds a NUL byte";
    if (name.size() > kMaxComponentBytes)
        return "it is " + std::to_string(name.size()) + " bytes long (at most 255)";
    return {};
}

bool joinInside(const std::string &root, std::string_view component, std::string_view what,
                std::string &path, std::string &error)
{
    namespace fs = std::filesystem;
    const std::string joined = root + "/" + printable(component);
    if (const std::string reason = unsafePathComponentReason(component); !reason.empty()) {
        error = std::string(what) + " '" + printable(component) + "' cannot name a file in the store: " + reason
                + "; refused to create " + joined;
        return false;
    }
    fs::path base = fs::path(root).lexically_normal();
    if (!base.has_filename() && base.has_parent_path())
        base = base.parent_path(); // "store/" → "store"
    const fs::path candidate = (base / std::string(component)).lexically_normal();
    if (candidate.parent_path() != base) {
        error = std::string(what) + " '" + printable(component) + "' would name " + candidate.string()
                + ", outside the store folder " + base.string() + "; refused";
        return false;
    }
    path = root + "/" + std::string(component);
    return true;
}

} // namespace mqdesk::store
