// mqdesk-admin: command-line administration in the style of RocketMQ's mqadmin:
// `mqdesk-admin -n ADDR <command> …` with mqadmin's command names and flag letters over the C++
// client (admin_session.h), and the offline store explorer `mqdesk-admin store <command> DIR …`
// (read-only, no broker needed).

#include "app/mqdesk-admin/admin_session.h"
#include "app/mqdesk-admin/store_commands.h"

#include <CLI/CLI.hpp>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <iostream>

using mqdesk::admin::AdminOptions;
using mqdesk::admin::StoreCommandOptions;

namespace {

// The first argument that is not a global option or its value: the command's name.
std::string commandName(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "-n" || arg == "--namesrvAddr" || arg == "--timeout" || arg == "--access-key"
            || arg == "--secret-key" || arg == "--tls-ca") {
            ++i;
            continue;
        }
        if (!arg.empty() && arg[0] == '-')
            continue;
        return arg;
    }
    return {};
}

} // namespace

int main(int argc, char **argv)
{
    CLI::App app{"MQDesk admin (mqadmin-style commands). Exit status: 0 ok, 1 a request failed or what was asked "
                 "for does not exist, 2 usage"};
    app.require_subcommand(1);
    // mqadmin takes -n after the command name; we take the global options on either side.
    app.fallthrough();
    AdminOptions adminOptions;
    app.add_option("-n,--namesrvAddr", adminOptions.namesrv, "NameServer address host:port (several: a;b)")
        ->envname("NAMESRV_ADDR");
    app.add_flag("--json", adminOptions.json, "JSON: one object per line for lists, one object for single results");
    app.add_option("--timeout", adminOptions.timeoutMillis, "Timeout of each request in ms")
        ->check(CLI::Range(int64_t{100}, int64_t{600000}))
        ->capture_default_str();
    // mqadmin reads these from conf/tools.yml; the environment keeps the secret out of `ps`.
    app.add_option("--access-key", adminOptions.credentials.accessKey,
                   "ACL accessKey: sign every request (a broker with aclEnable=true)")
        ->envname("ROCKETMQ_ACCESS_KEY");
    app.add_option("--secret-key", adminOptions.credentials.secretKey, "ACL secretKey for --access-key")
        ->envname("ROCKETMQ_SECRET_KEY");
    app.add_flag("--tls", adminOptions.tls,
                 "Connect with TLS (a cluster with tls.server.mode=enforcing; mqadmin's -Dtls.enable=true). Any "
                 "server certificate is accepted, as Java's tools do, unless --tls-ca is given");
    app.add_option("--tls-ca", adminOptions.tlsCaFile,
                   "PEM file of the CAs (or the self-signed certificate) to verify the servers with; implies --tls")
        ->check(CLI::ExistingFile);
    mqdesk::admin::addClusterCommands(app, adminOptions);
    mqdesk::admin::addBrokerCommands(app, adminOptions);
    mqdesk::admin::addTopicCommands(app, adminOptions);
    mqdesk::admin::addGroupCommands(app, adminOptions);
    mqdesk::admin::addMessageCommands(app, adminOptions);

    StoreCommandOptions options;
    static constexpr const char *kFromTimeHelp = "Start at the first record stored at or after this time: "
                                                 "milliseconds, \"yyyy-MM-dd HH:mm:ss[.SSS]\" or "
                                                 "yyyy-MM-dd#HH:mm:ss:SSS (local time)";
    auto *store = app.add_subcommand("store", "Inspect a RocketMQ store directory offline, read-only. Exit status: "
                                              "0 ok, 1 the store cannot be read, 2 usage, 3 verify found faults");
    store->require_subcommand(1);
    const auto command = [&](const std::string &name, const std::string &description) {
        auto *sub = store->add_subcommand(name, description);
        sub->add_option("DIR", options.dir, "Store root directory (storePathRootDir)")->required();
        sub->add_flag("--json", options.json, "JSON: one object per line for lists, one object for single results");
        sub->callback([&options, name] { options.command = name; });
        return sub;
    };
    command("summary", "Files, commit-log range, queues, index files, abort and lock");
    auto *records = command("records", "Commit-log records");
    auto *recordsFrom =
        records->add_option("--from", options.from, "Commit-log offset to start at")->check(CLI::NonNegativeNumber);
    records->add_option("--from-time", options.fromTime, kFromTimeHelp)->excludes(recordsFrom);
    records->add_option("--limit", options.limit, "Entries to print (0: all)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    records->add_option("--topic", options.topic, "Only this topic");
    records->add_option("--tag", options.tag, "Only these tags (\"A || B\")");
    records->add_option("--key", options.key, "Only records with this key (a KEYS token or UNIQ_KEY)");
    records->add_flag("--markers", options.markers, "Also list end-of-file records and invalid bytes");
    auto *cq = command("cq", "Consume queues; with --topic and --queue, that queue's entries");
    cq->add_option("--topic", options.topic, "Topic");
    cq->add_option("--queue", options.queue, "Queue id")->check(CLI::NonNegativeNumber);
    auto *cqFrom = cq->add_option("--from", options.from, "Queue offset to start at")->check(CLI::NonNegativeNumber);
    cq->add_option("--from-time", options.fromTime, kFromTimeHelp)->excludes(cqFrom);
    cq->add_option("--limit", options.limit, "Entries to print (0: all)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    auto *index = command("index", "Index files; with --key and --topic, the key's hash chain in each file");
    index->add_option("--key", options.key, "Message key (T#<tags>: the Java broker 5.5's entry for those tags)");
    index->add_option("--topic", options.topic, "Topic of the key");
    command("checkpoint", "The checkpoint file's times and offsets");
    auto *config = command("config", "Files in config/, decoded");
    config->add_option("--name", options.name, "Only this file (e.g. topics.json)");
    auto *verify = command("verify", "Health check: prints every fault with its file and offset");
    verify->add_flag("--no-crc", options.noCrc, "Simulate recovery without checkCRCOnRecover");

    // CLI11 would only say "The following arguments were not expected" for a misspelt command; name it.
    if (const std::string name = commandName(argc, argv); !name.empty()) {
        const auto known = app.get_subcommands([&name](const CLI::App *sub) { return sub->get_name() == name; });
        if (known.empty()) {
            std::cerr << "mqdesk-admin: unknown command '" << name << "' (see mqdesk-admin --help)\n";
            return mqdesk::admin::kExitUsage;
        }
    }
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::string(argv[i]) != "store")
            continue;
        const std::string name = argv[i + 1];
        const auto subcommands = store->get_subcommands([&name](const CLI::App *sub) { return sub->get_name() == name; });
        if (!name.empty() && name[0] != '-' && subcommands.empty()) {
            std::cerr << "mqdesk-admin: unknown store command '" << name
                      << "' (expected summary, records, cq, index, checkpoint, config or verify)\n";
            return mqdesk::admin::kExitUsage;
        }
        break;
    }

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError &e) {
        const int code = app.exit(e);
        return code == 0 ? 0 : mqdesk::admin::kExitUsage;
    }
    // The engine logs through spdlog's default logger, which writes to stdout; stdout is for
    // results (scripts parse --json), so its messages go to stderr.
    spdlog::set_default_logger(spdlog::stderr_color_mt("mqdesk-admin"));
    if (adminOptions.run) {
        if (adminOptions.credentials.accessKey.empty() != adminOptions.credentials.secretKey.empty()) {
            std::cerr << "mqdesk-admin " << adminOptions.command << ": --access-key and --secret-key (or "
                      << "ROCKETMQ_ACCESS_KEY and ROCKETMQ_SECRET_KEY) go together\n";
            return mqdesk::admin::kExitUsage;
        }
        spdlog::set_level(spdlog::level::warn); // the client's connection chatter is not output
        mqdesk::admin::AdminSession session(adminOptions);
        return adminOptions.run(session);
    }
    options.json = options.json || adminOptions.json;
    return mqdesk::admin::runStoreCommand(options);
}
