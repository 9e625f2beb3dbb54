#include "ui/explorer/config_tables.h"

#include "broker/remoting/protocol/route_data.h"
#include "broker/store/config/consumer_offset_manager.h"
#include "broker/store/config/delay_offset_manager.h"
#include "broker/store/config/subscription_group_manager.h"
#include "broker/store/config/topic_config_manager.h"
#include "broker/store/config/topic_queue_mapping_manager.h"
#include "ui/explorer/explorer_view_util.h"

#include <QCoreApplication>
#include <QStandardItemModel>
#include <QStringList>

namespace mqdesk::ui {

// The builders, in one class so their texts share a translation context.
class ConfigTables
{
    Q_DECLARE_TR_FUNCTIONS(mqdesk::ui::ConfigTables)

public:
    static QStandardItemModel *topics(const store::TopicConfigManager &manager, QObject *parent);
    static QStandardItemModel *groups(const store::SubscriptionGroupManager &manager, QObject *parent);
    static QStandardItemModel *offsets(const store::ConsumerOffsetManager &manager, const QueueMaxOffsets &maxOffsets,
                                       QObject *parent);
    static QStandardItemModel *delayOffsets(const store::DelayOffsetManager &manager, QObject *parent);
    static QStandardItemModel *queueMappings(const store::TopicQueueMappingManager &manager, QObject *parent);
    static QStandardItemModel *properties(const std::map<std::string, std::string> &properties, QObject *parent);
    static QStandardItemModel *jsonTree(const common::JsonValue &root, QObject *parent);
    static QString dataVersionNote(const store::DataVersion &version);

private:
    static void addJsonNode(QStandardItem *parent, const QString &key, const common::JsonValue &value);
};

namespace {

QStandardItemModel *newModel(const QStringList &headers, QObject *parent)
{
    auto *model = new QStandardItemModel(0, static_cast<int>(headers.size()), parent);
    model->setHorizontalHeaderLabels(headers);
    return model;
}

QString yesNo(bool value)
{
    return value ? QCoreApplication::translate("mqdesk::ui::ConfigTables", "yes")
                 : QCoreApplication::translate("mqdesk::ui::ConfigTables", "no");
}

QString stringMapText(const store::StringMap &map)
{
    QStringList pairs;
    for (const auto &[key, value] : map)
        pairs << qtText(key) + QLatin1Char('=') + qtText(value);
    return pairs.join(QStringLiteral(", "));
}

} // namespace

QueueMaxOffsets readQueueMaxOffsets(const store::StoreReader &reader, const store::ConfigFileContent &file)
{
    QueueMaxOffsets out;
    const auto *manager = dynamic_cast<const store::ConsumerOffsetManager *>(file.manager.get());
    if (!manager)
        return out;
    for (const auto &[topicAtGroup, queues] : manager->offsetTable()) {
        std::string topic;
        std::string group;
        if (!store::ConsumerOffsetManager::splitKey(topicAtGroup, topic, group))
            continue;
        for (const auto &[queueId, committed] : queues) {
            const auto key = std::make_pair(topic, queueId);
            if (out.count(key))
                continue;
            const auto queue = reader.consumeQueue(topic, queueId);
            out[key] = queue ? std::optional<int64_t>(queue->maxOffset) : std::nullopt;
        }
    }
    return out;
}

QStandardItemModel *ConfigTables::topics(const store::TopicConfigManager &manager, QObject *parent)
{
    auto *model = newModel({tr("Topic"), tr("Read queues"), tr("Write queues"), tr("Perm"), tr("Filter type"),
                            tr("Sys flag"), tr("Order"), tr("Attributes")},
                           parent);
    for (const store::TopicConfig &topic : manager.topicConfigs())
        model->appendRow({textItem(qtText(topic.topicName)), numberItem(topic.readQueueNums),
                          numberItem(topic.writeQueueNums),
                          textItem(QStringLiteral("%1 (%2)").arg(topic.perm).arg(qtText(remoting::topicPerm::permName(topic.perm)))),
                          textItem(qtText(topic.topicFilterType)), numberItem(topic.topicSysFlag),
                          textItem(yesNo(topic.order)), textItem(stringMapText(topic.attributes))});
    return model;
}

QStandardItemModel *ConfigTables::groups(const store::SubscriptionGroupManager &manager, QObject *parent)
{
    auto *model = newModel({tr("Group"), tr("Consume enabled"), tr("From min"), tr("Broadcast"), tr("Orderly"),
                            tr("Retry queues"), tr("Max retries"), tr("Broker id"), tr("When slow, broker"),
                            tr("Notify id changes"), tr("Retry policy"), tr("Subscriptions")},
                           parent);
    for (const store::SubscriptionGroupConfig &group : manager.subscriptionGroupConfigs()) {
        QStringList subscriptions;
        for (const auto &data : group.subscriptionDataSet.value_or(std::vector<store::SimpleSubscriptionData>{}))
            subscriptions << QStringLiteral("%1 %2 %3").arg(qtText(data.topic), qtText(data.expressionType),
                                                            qtText(data.expression));
        model->appendRow({textItem(qtText(group.groupName)), textItem(yesNo(group.consumeEnable)),
                          textItem(yesNo(group.consumeFromMinEnable)), textItem(yesNo(group.consumeBroadcastEnable)),
                          textItem(yesNo(group.consumeMessageOrderly)), numberItem(group.retryQueueNums),
                          numberItem(group.retryMaxTimes), numberItem(group.brokerId),
                          numberItem(group.whichBrokerWhenConsumeSlowly),
                          textItem(yesNo(group.notifyConsumerIdsChangedEnable)),
                          textItem(qtText(group.groupRetryPolicy.type)), textItem(subscriptions.join(QStringLiteral("; ")))});
    }
    return model;
}

QStandardItemModel *ConfigTables::offsets(const store::ConsumerOffsetManager &manager,
                                          const QueueMaxOffsets &maxOffsets, QObject *parent)
{
    auto *model = newModel({tr("Group"), tr("Topic"), tr("Queue"), tr("Committed offset"), tr("Max offset"), tr("Lag")},
                           parent);
    for (const auto &[topicAtGroup, queues] : manager.offsetTable()) {
        std::string topic;
        std::string group;
        if (!store::ConsumerOffsetManager::splitKey(topicAtGroup, topic, group))
            topic = topicAtGroup; // shown as written; the key has no '@'
        for (const auto &[queueId, committed] : queues) {
            const auto found = maxOffsets.find({topic, queueId});
            const bool hasQueue = found != maxOffsets.end() && found->second.has_value();
            QList<QStandardItem *> row{textItem(qtText(group)), textItem(qtText(topic)), numberItem(queueId),
                                       numberItem(committed)};
            if (hasQueue) {
                row << numberItem(*found->second) << numberItem(*found->second - committed);
            } else {
                auto *none = textItem(tr("no consume queue"));
                none->setToolTip(tr("consumequeue/%1/%2 does not exist in this store: the max offset and the lag "
                                    "cannot be told")
                                     .arg(qtText(topic))
                                     .arg(queueId));
                row << none << textItem(QStringLiteral("—"));
            }
            model->appendRow(row);
        }
    }
    return model;
}

QStandardItemModel *ConfigTables::delayOffsets(const store::DelayOffsetManager &manager, QObject *parent)
{
    auto *model = newModel({tr("Delay level"), tr("Offset")}, parent);
    for (const auto &[level, offset] : manager.offsetTable())
        model->appendRow({numberItem(level), numberItem(offset)});
    return model;
}

// topicQueueMapping.json: one row per item of each logical queue a static topic has here, oldest
// first, so a logical queue's history reads down the table: which broker and physical queue held
// which logical offsets, and which item leads now.
QStandardItemModel *ConfigTables::queueMappings(const store::TopicQueueMappingManager &manager, QObject *parent)
{
    auto *model = newModel({tr("Topic"), tr("Logical queue"), tr("Gen"), tr("Broker"), tr("Physical queue"),
                            tr("Logical offset"), tr("Physical start"), tr("Physical end"), tr("Role"), tr("Epoch"),
                            tr("Total queues")},
                           parent);
    const auto offsetItem = [](int64_t offset, const QString &unset) {
        return offset < 0 ? textItem(unset) : numberItem(offset);
    };
    for (const auto &[topic, detail] : manager.all()) {
        for (const auto &[globalId, items] : detail.hostedQueues) {
            for (size_t i = 0; i < items.size(); ++i) {
                const common::LogicQueueMappingItem &item = items[i];
                const bool newest = i + 1 == items.size();
                const QString role = !newest ? tr("earlier")
                                             : item.bname == detail.bname ? tr("leader, here") : tr("leader elsewhere");
                model->appendRow({textItem(QString::fromStdString(topic)), numberItem(globalId), numberItem(item.gen),
                                  textItem(QString::fromStdString(item.bname)), numberItem(item.queueId),
                                  offsetItem(item.logicOffset, tr("not decided")), numberItem(item.startOffset),
                                  offsetItem(item.endOffset, tr("open")), textItem(role),
                                  textItem(localTimeText(detail.epoch)), numberItem(detail.totalQueues)});
            }
        }
    }
    return model;
}

QStandardItemModel *ConfigTables::properties(const std::map<std::string, std::string> &properties, QObject *parent)
{
    auto *model = newModel({tr("Key"), tr("Value")}, parent);
    for (const auto &[key, value] : properties)
        model->appendRow({textItem(qtText(key)), textItem(qtText(value))});
    return model;
}

QStandardItemModel *ConfigTables::jsonTree(const common::JsonValue &root, QObject *parent)
{
    auto *model = newModel({tr("Key"), tr("Value"), tr("Type")}, parent);
    addJsonNode(model->invisibleRootItem(), tr("(document)"), root);
    return model;
}

void ConfigTables::addJsonNode(QStandardItem *parent, const QString &key, const common::JsonValue &value)
{
    using Type = common::JsonValue::Type;
    QString text;
    switch (value.type()) {
    case Type::Null: text = QStringLiteral("null"); break;
    case Type::Bool: text = value.asBool() ? QStringLiteral("true") : QStringLiteral("false"); break;
    case Type::Integer: text = QString::number(value.asInteger()); break;
    case Type::Double: text = QString::number(value.asDouble(), 'g', 17); break;
    case Type::String: text = qtText(value.asString()); break;
    case Type::Array: text = tr("%n item(s)", nullptr, static_cast<int>(value.asArray().size())); break;
    case Type::Object: text = tr("%n member(s)", nullptr, static_cast<int>(value.asObject().size())); break;
    }
    auto *keyItem = textItem(key);
    parent->appendRow({keyItem, textItem(text), textItem(QString::fromLatin1(value.typeName()))});
    if (value.isArray()) {
        int i = 0;
        for (const auto &element : value.asArray())
            addJsonNode(keyItem, QStringLiteral("[%1]").arg(i++), element);
    } else if (value.isObject()) {
        for (const auto &member : value.asObject())
            addJsonNode(keyItem, qtText(member.key), member.value);
    }
}

QString ConfigTables::dataVersionNote(const store::DataVersion &version)
{
    return tr("Data version: counter %1, written %2").arg(version.counter).arg(localTimeText(version.timestamp));
}

std::pair<QStandardItemModel *, ConfigTableKind> buildConfigModel(const store::ConfigFileContent &file,
                                                                   const QueueMaxOffsets &maxOffsets,
                                                                   QString *note, QObject *parent)
{
    note->clear();
    if (!file.parsed)
        return {nullptr, ConfigTableKind::None};
    const store::ConfigManager *manager = file.manager.get();
    if (const auto *m = dynamic_cast<const store::TopicConfigManager *>(manager)) {
        *note = ConfigTables::dataVersionNote(m->dataVersion());
        return {ConfigTables::topics(*m, parent), ConfigTableKind::Table};
    }
    if (const auto *m = dynamic_cast<const store::SubscriptionGroupManager *>(manager)) {
        *note = ConfigTables::dataVersionNote(m->dataVersion());
        return {ConfigTables::groups(*m, parent), ConfigTableKind::Table};
    }
    if (const auto *m = dynamic_cast<const store::ConsumerOffsetManager *>(manager))
        return {ConfigTables::offsets(*m, maxOffsets, parent), ConfigTableKind::Table};
    if (const auto *m = dynamic_cast<const store::DelayOffsetManager *>(manager))
        return {ConfigTables::delayOffsets(*m, parent), ConfigTableKind::Table};
    if (const auto *m = dynamic_cast<const store::TopicQueueMappingManager *>(manager)) {
        *note = ConfigTables::dataVersionNote(m->dataVersion());
        return {ConfigTables::queueMappings(*m, parent), ConfigTableKind::Table};
    }
    if (file.format == store::ConfigFormat::Properties)
        return {ConfigTables::properties(file.properties, parent), ConfigTableKind::Table};
    if (file.format == store::ConfigFormat::Json)
        return {ConfigTables::jsonTree(file.json, parent), ConfigTableKind::Tree};
    return {nullptr, ConfigTableKind::None};
}

} // namespace mqdesk::ui
