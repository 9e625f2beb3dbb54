#include "ui/messages/message_export.h"

#include "broker/common/message_id.h"
#include "broker/common/message_properties.h"
#include "ui/widgets/table_text.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QStringDecoder>
#include <QStringList>

namespace mqdesk::ui {

namespace {

QString fromStd(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

struct ExportedBody
{
    QString encoding; // "utf-8" or "base64"
    QString text;
};

ExportedBody bodyOf(const common::StoredMessage &message)
{
    const QByteArray bytes(reinterpret_cast<const char *>(message.body.data()), static_cast<qsizetype>(message.body.size()));
    if (!(message.sysFlag & common::sysflag::kCompressed)) {
        QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
        QString text = decoder(bytes);
        if (!decoder.hasError())
            return {QStringLiteral("utf-8"), text};
    }
    return {QStringLiteral("base64"), QString::fromLatin1(bytes.toBase64())};
}

QString msgIdOf(const common::StoredMessage &message)
{
    return fromStd(message.properties.get(common::property::kUniqClientMessageId).value_or(""));
}

QString offsetMsgIdOf(const common::StoredMessage &message)
{
    return QString::fromStdString(common::createOffsetMessageId(message.storeHost, message.physicalOffset));
}

QString keysOf(const common::StoredMessage &message)
{
    QStringList keys;
    for (std::string_view key : message.properties.keys())
        keys << fromStd(key);
    return keys.join(QLatin1Char(' '));
}

QByteArray jsonLine(const common::StoredMessage &message)
{
    QJsonObject properties;
    for (const auto &[key, value] : message.properties)
        properties.insert(fromStd(key), fromStd(value));
    const ExportedBody body = bodyOf(message);
    QJsonObject object{
        {QStringLiteral("topic"), fromStd(message.topic)},
        {QStringLiteral("queueId"), message.queueId},
        {QStringLiteral("queueOffset"), static_cast<qint64>(message.queueOffset)},
        {QStringLiteral("msgId"), msgIdOf(message)},
        {QStringLiteral("offsetMsgId"), offsetMsgIdOf(message)},
        {QStringLiteral("storeTimestamp"), static_cast<qint64>(message.storeTimestamp)},
        {QStringLiteral("bornTimestamp"), static_cast<qint64>(message.bornTimestamp)},
        {QStringLiteral("bornHost"), QString::fromStdString(message.bornHost.toString())},
        {QStringLiteral("storeHost"), QString::fromStdString(message.storeHost.toString())},
        {QStringLiteral("reconsumeTimes"), message.reconsumeTimes},
        {QStringLiteral("sysFlag"), message.sysFlag},
        {QStringLiteral("tags"), fromStd(message.tags())},
        {QStringLiteral("keys"), keysOf(message)},
        {QStringLiteral("properties"), properties},
        {QStringLiteral("bodyEncoding"), body.encoding},
        {QStringLiteral("body"), body.text},
    };
    return QJsonDocument(object).toJson(QJsonDocument::Compact) + '\n';
}

QByteArray csvLine(const common::StoredMessage &message)
{
    QStringList properties;
    for (const auto &[key, value] : message.properties)
        properties << fromStd(key) + QLatin1Char('=') + fromStd(value);
    const ExportedBody body = bodyOf(message);
    return csvRecord({fromStd(message.topic), QString::number(message.queueId), QString::number(message.queueOffset),
                   msgIdOf(message), offsetMsgIdOf(message), QString::number(message.storeTimestamp),
                   QString::number(message.bornTimestamp), QString::fromStdString(message.bornHost.toString()),
                   QString::fromStdString(message.storeHost.toString()), QString::number(message.reconsumeTimes),
                   QString::number(message.sysFlag), fromStd(message.tags()), keysOf(message),
                   properties.join(QLatin1Char('\n')), body.encoding, body.text});
}

} // namespace

MessageExportFormat messageExportFormatFor(const QString &path)
{
    return path.endsWith(QStringLiteral(".csv"), Qt::CaseInsensitive) ? MessageExportFormat::Csv
                                                                        : MessageExportFormat::JsonLines;
}

bool writeMessages(const std::vector<common::StoredMessage> &messages, const QString &path, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    const bool csv = messageExportFormatFor(path) == MessageExportFormat::Csv;
    if (csv) {
        file.write(csvRecord({QStringLiteral("topic"), QStringLiteral("queueId"), QStringLiteral("queueOffset"),
                           QStringLiteral("msgId"), QStringLiteral("offsetMsgId"), QStringLiteral("storeTimestamp"),
                           QStringLiteral("bornTimestamp"), QStringLiteral("bornHost"), QStringLiteral("storeHost"),
                           QStringLiteral("reconsumeTimes"), QStringLiteral("sysFlag"), QStringLiteral("tags"),
                           QStringLiteral("keys"), QStringLiteral("properties"), QStringLiteral("bodyEncoding"),
                           QStringLiteral("body")}));
    }
    for (const common::StoredMessage &message : messages)
        file.write(csv ? csvLine(message) : jsonLine(message));
    if (!file.commit()) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace mqdesk::ui
