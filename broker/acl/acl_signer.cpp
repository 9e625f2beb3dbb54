#include "broker/acl/acl_signer.h"

#include "broker/common/base64.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>
#include <stdexcept>

namespace mqdesk::acl {

namespace {

// One UTF-16 code unit sequence position of a UTF-8 string: decodes the code point at `pos`
// and returns its first (or only) UTF-16 unit, leaving the second of a pair in `pending`.
// Malformed bytes compare as themselves (Java would have replaced them with U+FFFD; such keys
// do not occur in requests a client signs).
struct Utf16Cursor
{
    std::string_view text;
    size_t pos = 0;
    uint32_t pending = 0; // a low surrogate still to be returned

    bool done() const { return pending == 0 && pos >= text.size(); }

    uint32_t next()
    {
        if (pending != 0) {
            const uint32_t unit = pending;
            pending = 0;
            return unit;
        }
        const auto byte = [&](size_t i) { return static_cast<uint8_t>(text[i]); };
        const uint8_t lead = byte(pos);
        size_t length = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3 : (lead >> 3) == 0x1E ? 4 : 0;
        if (length == 0 || pos + length > text.size()) {
            ++pos;
            return lead;
        }
        uint32_t codePoint = length == 1 ? lead : lead & (0x7F >> length);
        for (size_t i = 1; i < length; ++i)
            codePoint = (codePoint << 6) | (byte(pos + i) & 0x3F);
        pos += length;
        if (codePoint < 0x10000)
            return codePoint;
        codePoint -= 0x10000;
        pending = 0xDC00 + (codePoint & 0x3FF);
        return 0xD800 + (codePoint >> 10);
    }
};

bool isAscii(std::string_view text)
{
    return std::all_of(text.begin(), text.end(), [](char c) { return static_cast<uint8_t>(c) < 0x80; });
}

} // namespace

bool javaStringLess(std::string_view a, std::string_view b)
{
    if (isAscii(a) && isAscii(b))
        return a < b;
    Utf16Cursor left{a}, right{b};
    while (!left.done() && !right.done()) {
        const uint32_t x = left.next(), y = right.next();
        if (x != y)
            return x < y;
    }
    return left.done() && !right.done();
}

std::vector<uint8_t> signedContent(const remoting::ExtFields &fields, std::span<const uint8_t> body,
                                   bool skipUniqueKeyFlag)
{
    std::vector<const remoting::ExtFields::Entry *> sorted;
    sorted.reserve(fields.size());
    size_t valueBytes = 0;
    for (const auto &entry : fields) {
        if (entry.first == kSignatureField || (skipUniqueKeyFlag && entry.first == kUniqueKeyQueryField))
            continue;
        sorted.push_back(&entry);
        valueBytes += entry.second.size();
    }
    // ExtFields keys are unique, so the order is total.
    std::sort(sorted.begin(), sorted.end(),
              [](const auto *x, const auto *y) { return javaStringLess(x->first, y->first); });
    std::vector<uint8_t> content;
    content.reserve(valueBytes + body.size());
    for (const auto *entry : sorted)
        content.insert(content.end(), entry->second.begin(), entry->second.end());
    content.insert(content.end(), body.begin(), body.end());
    return content;
}

std::string calSignature(std::span<const uint8_t> data, std::string_view secretKey)
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int digestLength = 0;
    static const unsigned char kEmpty = 0;
    if (!HMAC(EVP_sha1(), secretKey.data(), static_cast<int>(secretKey.size()), data.empty() ? &kEmpty : data.data(),
              data.size(), digest, &digestLength)) {
        throw std::runtime_error("HMAC-SHA1 failed"); // only on allocation failure inside OpenSSL
    }
    return common::encodeBase64(std::string_view(reinterpret_cast<const char *>(digest), digestLength));
}

void signRequest(remoting::RemotingCommand &request, const Credentials &credentials)
{
    request.extFields.set(kAccessKeyField, credentials.accessKey);
    if (!credentials.securityToken.empty())
        request.extFields.set(kSecurityTokenField, credentials.securityToken);
    const std::vector<uint8_t> content = signedContent(request.extFields, request.body, false);
    request.extFields.set(kSignatureField, calSignature(content, credentials.secretKey));
}

} // namespace mqdesk::acl
