#pragma once

// RemotingCommand: the unit of RocketMQ's remoting protocol, a request or a response (remoting
// spec §1, §2). This is the decoded form; remoting_codec.h turns it into frames and back.

#include "broker/remoting/remoting_codes.h"

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mqdesk::remoting {

// The version our side puts into the commands it writes: MQVersion V4_9_8, the 4.x broker we
// emulate (§2.3). Clients only compare it against thresholds.
inline constexpr int32_t kMQDeskRemotingVersion = 409;

// MQVersion.getVersionDesc: a command's version ordinal as Java names it ("V4_9_8", "V5_0_8",
// "V5_3_3_SNAPSHOT", "HIGHER_VERSION"). From V4_0_0_SNAPSHOT (212) on, MQVersion has two entries
// per patch release (SNAPSHOT, release); the 3.x entries before it are irregular and get an
// empty name, as does anything negative.
std::string mqVersionName(int32_t ordinal);

// Who sent a command (§1.5). JSON carries the name, the binary header the byte. The underlying
// byte may hold a value without a name (a binary header from an unknown client); such values
// are kept as they are and written as OTHER in JSON.
enum class LanguageCode : uint8_t {
    Java = 0,
    Cpp = 1,
    Dotnet = 2,
    Python = 3,
    Delphi = 4,
    Erlang = 5,
    Ruby = 6,
    Other = 7,
    Http = 8,
    Go = 9,
    Php = 10,
    Oms = 11,
    Rust = 12,
    NodeJs = 13, // [5.x]
};

// "JAVA", "NODE_JS", ...; an empty view for a byte without a name.
std::string_view languageCodeName(LanguageCode language);
// The code for a name, matched exactly as Java's enum valueOf does; nullopt when unknown.
std::optional<LanguageCode> languageCodeFromName(std::string_view name);

// The header encoding of a frame: the high byte of the header-length word (§1.1).
enum class SerializeType : uint8_t {
    Json = 0,
    RocketMq = 1, // the ROCKETMQ binary header (§1.4)
};

std::string_view serializeTypeName(SerializeType type); // "JSON" / "ROCKETMQ"

// The "custom header" fields of a command: a string map that keeps insertion order and unique
// keys. Order matters only for writing (Java writes its HashMap order; tests compare bytes);
// lookups are linear, which is the fast choice for the dozen entries a header carries.
class ExtFields
{
public:
    using Entry = std::pair<std::string, std::string>;

    ExtFields() = default;
    // A repeated key keeps its first position and its last value, as a Java map would.
    ExtFields(std::initializer_list<Entry> entries);

    size_t size() const { return entries_.size(); }
    bool empty() const { return entries_.empty(); }
    const std::vector<Entry> &entries() const { return entries_; }
    std::vector<Entry>::const_iterator begin() const { return entries_.begin(); }
    std::vector<Entry>::const_iterator end() const { return entries_.end(); }

    // The value of `key`, or nullptr. The pointer is valid until the map is next modified.
    const std::string *find(std::string_view key) const;
    bool contains(std::string_view key) const { return find(key) != nullptr; }
    // The value of `key`, or `fallback` when absent.
    std::string value(std::string_view key, std::string_view fallback = {}) const;

    // Replaces the value of an existing key in place or appends a new entry.
    void set(std::string key, std::string value);
    // Replaces the whole map with `entries` as set() one by one would leave it (a repeated key
    // keeps its first position and its last value), in time linear in their number: decoders
    // use it for what a peer sent, which may be thousands of entries.
    void assign(std::vector<Entry> entries);
    bool remove(std::string_view key);
    void clear() { entries_.clear(); }

    bool operator==(const ExtFields &other) const = default;

private:
    std::vector<Entry> entries_;
};

// A request or a response. A plain value type: copy it, move it, compare it.
struct RemotingCommand
{
    static constexpr int32_t kResponseFlag = 1 << 0;
    static constexpr int32_t kOnewayFlag = 1 << 1;

    // RequestCode for requests, ResponseCode for responses. JSON carries any int32; the binary
    // header only int16 (the codec refuses to write a larger one there).
    int32_t code = 0;
    LanguageCode language = LanguageCode::Java;
    int32_t version = kMQDeskRemotingVersion;
    // Chosen by the requester and echoed in the response; 0 is a legal id (Java starts at 0).
    int32_t opaque = 0;
    int32_t flag = 0;
    // Absent on success; error text on failed responses. JSON distinguishes absent from "";
    // the binary header cannot (a zero length reads back as absent).
    std::optional<std::string> remark;
    ExtFields extFields;
    // Java's serializeTypeCurrentRPC: the encoding this command was received in, and the one it
    // is written in. Decoding sets it from the frame; createResponse copies it so that a
    // response goes out in its request's encoding (§1.2).
    SerializeType serializeType = SerializeType::Json;
    std::vector<uint8_t> body;

    bool isResponse() const { return (flag & kResponseFlag) != 0; }
    bool isRequest() const { return !isResponse(); }
    // A oneway request must not be answered.
    bool isOneway() const { return (flag & kOnewayFlag) != 0; }
    void markResponse() { flag |= kResponseFlag; }
    void markOneway() { flag |= kOnewayFlag; }

    // A JSON request from this process: our language and version, and an opaque drawn from a
    // process-wide counter that starts at 0 and wraps, like Java's requestId. Callers that keep
    // their own ids (a client connection) overwrite `opaque`.
    static RemotingCommand createRequest(int32_t code, ExtFields extFields = {});
    // The response to `request`: its opaque and serialization type, the response flag (never
    // the oneway flag), our language and version, no extFields, no body.
    static RemotingCommand createResponse(const RemotingCommand &request, int32_t code,
                                          std::optional<std::string> remark = std::nullopt);

    bool operator==(const RemotingCommand &other) const = default;
};

// One line for logs, without the body's content: `request SEND_MESSAGE_V2(310) opaque=1
// flag=0 JAVA v409 JSON ext=12 body=5`; responses also show the remark.
std::string describeCommand(const RemotingCommand &command);

} // namespace mqdesk::remoting
