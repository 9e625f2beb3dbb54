#pragma once

// The byte layout of one commit-log record (store-format §3.1): each field with where it sits,
// how long it is and its value as text, for the store explorer's field tree and hex pane. A pure
// function over bytes — it never reads a file — so it lays out damaged records too: fields are
// emitted for as long as the bytes and the lengths read so far allow, and `error` says where and
// why the layout stopped.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace mqdesk::store {

struct RecordField
{
    std::string name;   // "TOTALSIZE", "BORNHOST", …; a property's key for PROPERTIES' children
    int64_t offset = 0; // from the record's first byte
    int64_t length = 0; // bytes
    std::string value;  // as text: numbers in decimal (hex where it helps), times also as UTC
    std::vector<RecordField> children; // BORNHOST/STOREHOST: address and port; PROPERTIES: each pair
};

struct RecordLayout
{
    std::vector<RecordField> fields; // in on-disk order
    bool blank = false;              // the end-of-file record (TOTALSIZE and MAGICCODE only)
    std::string error;               // empty when every field was laid out
};

// Lays out the record starting at `bytes[0]`; `bytes` may extend past it (only TOTALSIZE bytes
// are used when it is plausible).
RecordLayout recordLayout(std::span<const uint8_t> bytes);

// The innermost field (a child before its parent) holding byte `offset` of the record, as a
// path of indexes from the top level; empty when no field holds it.
std::vector<int> fieldPathAt(const RecordLayout &layout, int64_t offset);

} // namespace mqdesk::store
