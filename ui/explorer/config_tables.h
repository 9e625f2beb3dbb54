#pragma once

// The tables ConfigFilesView shows for each config file (store-format §8), built from what
// StoreReader::configFiles() decoded: topics.json, subscriptionGroup.json, consumerOffset.json
// (with each queue's max offset from its consume queue and the lag), delayOffset.json,
// topicQueueMapping.json (static topics' logical queues, item by item) and broker.properties as
// rows; any other JSON as a tree. Pure functions over data already read:
// the caller reads the files and the queues' max offsets off the GUI thread.

#include "broker/store/reader/store_reader.h"

#include <QString>

#include <map>
#include <optional>
#include <string>
#include <utility>

class QObject;
class QStandardItemModel;

namespace mqdesk::ui {

// (topic, queueId) → the queue's max offset; nullopt when the queue has no consume queue.
using QueueMaxOffsets = std::map<std::pair<std::string, int32_t>, std::optional<int64_t>>;

// The (topic, queue) pairs consumerOffset.json names, with their max offsets read from `reader`.
// Reads files: call off the GUI thread.
QueueMaxOffsets readQueueMaxOffsets(const store::StoreReader &reader, const store::ConfigFileContent &file);

enum class ConfigTableKind { Table, Tree, None };

// A model for `file` (owned by `parent`) and how to show it; None (and nullptr) when the file did
// not parse or holds no JSON or properties. `note` gets a line to show above it (data version, …).
std::pair<QStandardItemModel *, ConfigTableKind> buildConfigModel(const store::ConfigFileContent &file,
                                                                   const QueueMaxOffsets &maxOffsets,
                                                                   QString *note, QObject *parent);

} // namespace mqdesk::ui
