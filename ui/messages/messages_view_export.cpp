// The Messages page's Export…: the selected messages, or every one shown, written whole to a
// file the user names (message_export.h: JSON Lines, or CSV by the suffix). The save dialog is
// the desktop's own where the platform has one (Qt's where it has none, as under test).

#include "ui/messages/messages_view.h"

#include "ui/messages/message_export.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QRegularExpression>

namespace mqdesk::ui {

void MessagesView::exportMessages()
{
    bool selected = false;
    std::vector<common::StoredMessage> messages = chosenMessages(selected);
    if (messages.empty())
        return;
    QString name = topicCombo_->currentText().trimmed();
    name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_.-]")), QStringLiteral("_"));
    QFileDialog dialog(this, selected ? tr("Export %n selected message(s)", "", static_cast<int>(messages.size()))
                                      : tr("Export all %n message(s) shown", "", static_cast<int>(messages.size())));
    dialog.setObjectName(QStringLiteral("exportMessagesDialog"));
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setNameFilters({tr("JSON Lines (*.jsonl)"), tr("CSV (*.csv)")});
    dialog.setDefaultSuffix(QStringLiteral("jsonl"));
    dialog.selectFile((name.isEmpty() ? QStringLiteral("messages") : name) + QStringLiteral(".jsonl"));
    connect(&dialog, &QFileDialog::filterSelected, &dialog, [&dialog](const QString &filter) {
        dialog.setDefaultSuffix(filter.contains(QStringLiteral("*.csv")) ? QStringLiteral("csv") : QStringLiteral("jsonl"));
    });
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty()) {
        emit exportFinished({});
        return;
    }
    const QString path = dialog.selectedFiles().constFirst();
    QString error;
    if (!writeMessages(messages, path, &error)) {
        showBanner(tr("Nothing was exported: %1").arg(error), true);
        emit exportFinished({});
        return;
    }
    showBanner(tr("Exported %n message(s) to %1.", "", static_cast<int>(messages.size())).arg(QDir::toNativeSeparators(path)),
               false);
    emit exportFinished(path);
}

} // namespace mqdesk::ui
