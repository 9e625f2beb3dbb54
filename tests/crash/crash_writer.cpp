// The child of the crash test: appends to a store with SYNC_FLUSH from several threads and
// writes one line per acknowledged put to stdout — "ack <seq> <offset> <size> <flushed>" — with
// a single write(2), after the store acknowledged it; <flushed> is the store's flushed position
// read right after the acknowledgement. It runs until it is killed.
// With `timer`, it puts timer messages instead (test::crashTimerMessage, due 0.3-1.5 s later)
// and reports "timer <seq> <deliverMs>" for each acknowledged one.
//
// usage: crash_writer STORE_DIR FILE_SIZE FIRST_SEQ THREADS [timer]

#include "broker/common/clock.h"
#include "broker/store/message_store.h"

#include "crash_message.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

using namespace mqdesk;

int main(int argc, char **argv)
{
    if (argc != 5 && !(argc == 6 && std::string(argv[5]) == "timer")) {
        std::fprintf(stderr, "usage: %s STORE_DIR FILE_SIZE FIRST_SEQ THREADS [timer]\n", argv[0]);
        return 2;
    }
    store::MessageStoreConfig config = test::crashStoreConfig(argv[1]);
    if (config.mappedFileSizeCommitLog != std::atoll(argv[2])) {
        std::fprintf(stderr, "crash_writer: file size %s disagrees with the test's\n", argv[2]);
        return 2;
    }
    config.flushDiskType = store::FlushDiskType::SyncFlush;
    const int64_t firstSeq = std::atoll(argv[3]);
    const int threads = std::atoi(argv[4]);
    const bool timer = argc == 6;

    store::MessageStore store(config);
    std::string error;
    if (!store.open(error)) {
        std::fprintf(stderr, "crash_writer: %s\n", error.c_str());
        return 1;
    }
    const std::string ready = "ready\n";
    if (::write(STDOUT_FILENO, ready.data(), ready.size()) < 0)
        return 1;

    std::vector<std::thread> writers;
    for (int t = 0; t < threads; ++t) {
        writers.emplace_back([&, t] {
            for (int64_t seq = firstSeq + t;; seq += threads) {
                const int64_t deliverMs = common::wallMillis() + 300 + seq % 1200;
                const auto result = store.putMessage(timer ? test::crashTimerMessage(seq, deliverMs) : test::crashMessage(seq));
                if (result.status != store::PutMessageStatus::PutOk) {
                    std::fprintf(stderr, "crash_writer: put %lld failed: %s\n", static_cast<long long>(seq),
                                 result.error.c_str());
                    std::_Exit(3);
                }
                const int64_t flushed = store.commitLog().flushedWhere();
                const std::string line = timer ? "timer " + std::to_string(seq) + " " + std::to_string(deliverMs) + "\n"
                                               : "ack " + std::to_string(seq) + " " + std::to_string(result.wroteOffset)
                                                     + " " + std::to_string(result.wroteBytes) + " "
                                                     + std::to_string(flushed) + "\n";
                if (::write(STDOUT_FILENO, line.data(), line.size()) < 0)
                    std::_Exit(4);
            }
        });
    }
    for (auto &w : writers)
        w.join();
    return 0;
}
