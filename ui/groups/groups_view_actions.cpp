// GroupsView's actions: reset offsets, skip accumulated, create and delete a group config.
// Reset and delete ask once, inline, saying what will change; results go to the banner.

#include "ui/groups/groups_view.h"

#include "ui/groups/group_dialogs.h"
#include "ui/groups/group_table_model.h"

#include <QDateTime>
#include <QLabel>
#include <QLocale>

namespace mqdesk::ui {

namespace {

QString joined(const std::vector<std::string> &items)
{
    QStringList list;
    for (const auto &item : items)
        list << QString::fromStdString(item);
    return list.join(QStringLiteral(", "));
}

} // namespace

void GroupsView::askConfirmation(const QString &text, std::function<void()> action)
{
    pendingAction_ = std::move(action);
    confirmLabel_->setText(text);
    confirmBar_->show();
}

void GroupsView::confirmPending()
{
    auto action = std::move(pendingAction_);
    pendingAction_ = nullptr;
    confirmBar_->hide();
    if (action)
        action();
}

void GroupsView::finishAction(bool ok, const QString &text)
{
    showBanner(text, !ok);
    refresh();
    emit actionFinished(ok);
}

void GroupsView::openResetDialog()
{
    const QString group = selectedGroup();
    if (group.isEmpty())
        return;
    ResetOffsetDialog dialog(group, this);
    if (dialog.exec() == QDialog::Accepted)
        requestReset(dialog.target(), dialog.timestampMillis());
}

void GroupsView::openCreateDialog()
{
    CreateGroupDialog dialog(this);
    if (dialog.exec() == QDialog::Accepted)
        createGroup(dialog.config());
}

void GroupsView::requestReset(ResetTarget target, int64_t timestampMillis)
{
    const QString group = selectedGroup();
    const int row = groups_->rowOf(group.toStdString());
    if (row < 0) {
        showBanner(tr("Select a group first."), true);
        return;
    }
    const GroupSummary summary = groups_->group(row);
    if (summary.topics.empty()) {
        showBanner(tr("%1 has no committed offsets to reset: it has not consumed anything yet.").arg(group), true);
        return;
    }
    const QString lag = QLocale().toString(static_cast<qlonglong>(summary.totalLag));
    QString where;
    switch (target) {
    case ResetTarget::Earliest:
        where = tr("the earliest stored message: everything still stored is consumed again");
        break;
    case ResetTarget::Latest:
        where = tr("the latest offset: the %1 messages not consumed yet are skipped and the lag becomes 0").arg(lag);
        break;
    case ResetTarget::ByTime:
        where = tr("the first message stored at or after %1")
                    .arg(QLocale().toString(QDateTime::fromMSecsSinceEpoch(timestampMillis), QLocale::ShortFormat));
        break;
    }
    QString text = tr("Reset the offsets of %1 on %2 to %3? The total lag is now %4.")
                       .arg(group, joined(summary.topics), where, lag);
    // Push consumers online apply a reset the broker sends them (and would commit their old
    // position over a written one); pull consumers and offline groups get the offsets written.
    const GroupPresence *presence = groups_->presence(row);
    const int online = presence ? presence->clients : 0;
    const bool throughClients = online > 0 && presence->consumeType == "CONSUME_PASSIVELY";
    if (throughClients)
        text += QLatin1Char(' ') + tr("The broker tells the %n online client(s) to move to the new offsets.", "", online);
    else if (online > 0)
        text += QLatin1Char(' ')
                + tr("%n pull client(s) online may commit their own offsets over the reset; stop them first.", "",
                     online);
    askConfirmation(text, [this, group, topics = summary.topics, target, timestampMillis, throughClients] {
        status_->setText(tr("Resetting the offsets of %1…").arg(group));
        connection_.run(
            this,
            [name = group.toStdString(), topics, target, timestampMillis, throughClients](client::AdminClient &admin) {
                return resetGroupOffsets(admin, name, topics, target, timestampMillis, throughClients);
            },
            [this, group, throughClients](ResetOutcome outcome) {
                const int written = static_cast<int>(outcome.written.size());
                if (written > 0)
                    recordReset(group);
                if (outcome.error.empty() && throughClients && !outcome.wroteDirectly)
                    finishAction(true, tr("Sent the reset of %n queue(s) of %1 to its online clients.", "", written)
                                           .arg(group));
                else if (outcome.error.empty())
                    finishAction(true, tr("Reset %n queue(s) of %1.", "", written).arg(group));
                else
                    finishAction(false, tr("The reset of %1 stopped after %n queue(s): %2", "", written)
                                            .arg(group, QString::fromStdString(outcome.error)));
            });
    });
}

void GroupsView::requestDelete()
{
    const QString group = selectedGroup();
    const int row = groups_->rowOf(group.toStdString());
    if (row < 0) {
        showBanner(tr("Select a group first."), true);
        return;
    }
    const GroupSummary &summary = groups_->group(row);
    QString text = tr("Delete the group %1 on every broker, with its committed offsets (%n topic(s))?", "",
                      static_cast<int>(summary.topics.size()))
                       .arg(group);
    if (const int online = groups_->clients(row); online > 0)
        text += QLatin1Char(' ') + tr("%n client(s) still online will recreate it.", "", online);
    askConfirmation(text, [this, group] {
        connection_.run(
            this,
            [name = group.toStdString()](client::AdminClient &admin) {
                return admin.deleteSubscriptionGroup({}, name, true);
            },
            [this, group](client::Status status) {
                if (status.ok)
                    finishAction(true, tr("Deleted the group %1.").arg(group));
                else
                    finishAction(false, tr("Deleting %1 failed: %2").arg(group, QString::fromStdString(status.error)));
            });
    });
}

void GroupsView::createGroup(const client::SubscriptionGroupConfig &config)
{
    const QString group = QString::fromStdString(config.groupName);
    status_->setText(tr("Creating the group %1…").arg(group));
    connection_.run(
        this, [config](client::AdminClient &admin) { return admin.createSubscriptionGroup({}, config); },
        [this, group](client::Status status) {
            if (status.ok) {
                selectAfterLoad_ = group;
                finishAction(true, tr("Created the group %1 on every broker.").arg(group));
            } else {
                finishAction(false, tr("Creating %1 failed: %2").arg(group, QString::fromStdString(status.error)));
            }
        });
}

} // namespace mqdesk::ui
