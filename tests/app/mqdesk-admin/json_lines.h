#pragma once

// mqdesk-admin's --json output as the tests read it: one JSON object a line.

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QtGlobal>

namespace mqdesk::test {

// Every line of `out` parsed as a JSON object; empty (with a warning) on anything else.
inline QList<QJsonObject> jsonLines(const QByteArray &out)
{
    QList<QJsonObject> objects;
    for (const QByteArray &line : out.split('\n')) {
        if (line.isEmpty())
            continue;
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(line, &error);
        if (error.error != QJsonParseError::NoError || !doc.isObject()) {
            qWarning("not a JSON object: %s", line.constData());
            return {};
        }
        objects.push_back(doc.object());
    }
    return objects;
}

} // namespace mqdesk::test
