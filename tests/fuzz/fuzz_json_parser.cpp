// libFuzzer target: the JSON / fastjson-dialect parser (broker/common/json.h) that reads config
// files and request bodies. A document that parses is written in fastjson's pretty and compact
// forms and strict JSON; each must parse again.

#include "broker/common/json.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

using namespace mqdesk::common;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const JsonParseResult parsed = parseJson(std::string_view(reinterpret_cast<const char *>(data), size));
    if (!parsed.ok())
        return 0;
    for (const std::string &written :
         {toFastjsonPretty(parsed.value), toFastjsonCompact(parsed.value), toJsonCompact(parsed.value)}) {
        if (!parseJson(written).ok())
            std::abort();
    }
    return 0;
}
