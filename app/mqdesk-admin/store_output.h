#pragma once

// Output helpers for `mqdesk-admin store …`: aligned text tables, JSON lines written through
// broker/common/json.h, and the JSON form of the reader's records.

#include "broker/common/json.h"
#include "broker/store/reader/store_reader.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace mqdesk::admin {

// Columns padded to their widest cell; the last column is not padded (it may be long text).
class TextTable
{
public:
    explicit TextTable(std::vector<std::string> headers) : headers_(std::move(headers)) {}
    void addRow(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }
    bool empty() const { return rows_.empty(); }
    void print(std::ostream &out) const;

private:
    std::vector<std::string> headers_;
    std::vector<std::vector<std::string>> rows_;
};

// "key: value" lines with the values aligned.
class KeyValueList
{
public:
    void add(std::string key, std::string value) { items_.emplace_back(std::move(key), std::move(value)); }
    void print(std::ostream &out) const;

private:
    std::vector<std::pair<std::string, std::string>> items_;
};

// One compact, strict JSON object followed by a newline.
void printJsonLine(std::ostream &out, const common::JsonObject &object);

bool isValidUtf8(std::string_view bytes);
// `bytes` with every invalid UTF-8 sequence replaced by U+FFFD, so JSON output stays valid.
std::string utf8Text(std::string_view bytes);
// Local time "YYYY-MM-DD HH:MM:SS.mmm"; "-" for 0.
std::string formatMillis(int64_t epochMillis);
// Printable single-line preview of a body: control bytes and invalid UTF-8 shown as '.'.
std::string bodyPreview(const std::vector<uint8_t> &body, size_t maxChars);

// offset, size, file, kind and, for messages, every decoded field; the body as `body` (valid
// UTF-8) or `bodyBase64`; for invalid bytes, `error`.
common::JsonObject recordToJson(const store::CommitLogRecord &record);
std::string_view recordKindName(store::RecordKind kind);

} // namespace mqdesk::admin
