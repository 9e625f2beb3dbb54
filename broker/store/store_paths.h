#pragma once

// The store's own wall around its folder: every file name the store derives from a client's
// string (a topic today: consumequeue/<topic>/<queueId>/) passes through here, so no name —
// whatever the request boundary let through — can make the store create or open a file outside
// its root. The broker validates names with RocketMQ's rules where they enter; this is the
// second wall behind it and accepts anything that is one harmless path component.

#include <string>
#include <string_view>

namespace mqdesk::store {

// Why `name` cannot be a single path component under the store (empty, "." or "..", holds '/'
// or NUL, over 255 bytes), or empty when it can.
std::string unsafePathComponentReason(std::string_view name);

// `root` + "/" + `component` when `component` is safe and the joined path stays inside `root`
// (lexically, after normalisation); else false with `error` naming `what` (e.g. "topic"), the
// name and the path refused.
bool joinInside(const std::string &root, std::string_view component, std::string_view what,
                std::string &path, std::string &error);

} // namespace mqdesk::store
