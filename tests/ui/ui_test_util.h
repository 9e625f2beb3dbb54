#pragma once

// Shared by the GUI tests: options for a real embedded broker on a temporary store (free
// ports, small files), and screenshots saved in the build tree.

#include "broker/server/embedded_broker.h"

#include <QCoreApplication>
#include <QDir>
#include <QString>
#include <QWidget>
#include <QtTest/QtTest>

namespace mqdesk::test {

inline server::EmbeddedBrokerOptions optionsFor(const QString &store, uint16_t namesrvPort = 0, int brokerPort = 0)
{
    server::EmbeddedBrokerOptions options;
    options.settings.store.storePathRootDir = store.toStdString();
    options.settings.store.listenPort = brokerPort;
    options.settings.store.mappedFileSizeCommitLog = 16 * 1024 * 1024;
    options.settings.store.maxIndexNum = 4000;
    options.settings.store.maxHashSlotNum = 1000;
    options.namesrvPort = namesrvPort;
    return options;
}

// Saves `widget` as <build>/screenshots/<name>.png after pending layouts have run (a label that
// just changed, a banner just hidden).
inline void saveScreenshot(QWidget &widget, const QString &name)
{
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    QCoreApplication::processEvents();
    const QString dir = QStringLiteral(QT_TESTCASE_BUILDDIR) + QStringLiteral("/screenshots");
    QDir().mkpath(dir);
    QVERIFY(widget.grab().save(dir + QLatin1Char('/') + name + QStringLiteral(".png")));
}

} // namespace mqdesk::test
