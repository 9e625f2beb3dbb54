#include "ui/connection/connection_bar.h"

#include "ui/connection/cluster_connection.h"
#include "ui/connection/connection_manager.h"
#include "ui/connection/connections_dialog.h"

#include <QAction>
#include <QComboBox>
#include <QIcon>
#include <QLabel>
#include <QMenu>
#include <QToolButton>

namespace mqdesk::ui {

ConnectionBar::ConnectionBar(ConnectionManager &manager, ClusterConnection &connection, QWidget *parent)
    : QToolBar(tr("Connections"), parent), manager_(manager), connection_(connection)
{
    setObjectName(QStringLiteral("connectionsToolBar")); // saveState() needs a name
    setMovable(false);
    setIconSize(QSize(20, 20));

    auto *label = new QLabel(tr("Cluster:"), this);
    label->setContentsMargins(4, 0, 4, 0);
    combo_ = new QComboBox(this);
    combo_->setObjectName(QStringLiteral("connectionCombo"));
    combo_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    combo_->setMinimumContentsLength(24);
    combo_->setToolTip(tr("The cluster the views show (Ctrl+K)"));
    label->setBuddy(combo_);
    addWidget(label);
    addWidget(combo_);
    QAction *manage = addAction(tr("Connections…"), this, [this] { openDialog(); });
    manage->setToolTip(tr("Add, rename and remove saved clusters"));

    banner_ = new QLabel(this);
    banner_->setObjectName(QStringLiteral("connectionBanner"));
    banner_->setWordWrap(true);
    banner_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    banner_->setContentsMargins(8, 6, 8, 6);
    banner_->hide();

    connect(combo_, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (!reloading_ && index >= 0)
            manager_.select(combo_->itemData(index).toInt());
    });
    connect(&manager_, &ConnectionManager::connectionsChanged, this, &ConnectionBar::reloadCombo);
    connect(&manager_, &ConnectionManager::selectionChanged, this, &ConnectionBar::reloadCombo);
    connect(&connection_, &ClusterConnection::namesrvAddressChanged, this, &ConnectionBar::checkReachable);
    reloadCombo();

    // Entries skipped while loading are said once the saved connections arrive.
    auto showNotes = [this] {
        const QStringList notes = manager_.loadNotes();
        if (!notes.isEmpty())
            showBanner(notes.join(QLatin1Char('\n')), true);
    };
    connect(&manager_, &ConnectionManager::loaded, this, showNotes);
    showNotes();
}

QString ConnectionBar::bannerText() const
{
    return banner_->isHidden() ? QString() : banner_->text();
}

void ConnectionBar::addActionsTo(QMenu *menu)
{
    QAction *focus = menu->addAction(tr("&Switch cluster"), this, [this] {
        combo_->setFocus(Qt::ShortcutFocusReason);
        combo_->showPopup();
    });
    focus->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));
    menu->addAction(tr("&Manage connections…"), this, [this] { openDialog(); });
}

ConnectionsDialog *ConnectionBar::openDialog()
{
    if (auto *open = findChild<ConnectionsDialog *>(); open && open->isVisible()) {
        open->raise();
        return open;
    }
    auto *dialog = new ConnectionsDialog(manager_, this); // a window over the main window
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowModality(Qt::WindowModal);
    dialog->open();
    return dialog;
}

void ConnectionBar::reloadCombo()
{
    reloading_ = true;
    combo_->clear();
    combo_->addItem(QIcon(QStringLiteral(":/icons/mqdesk.svg")), tr("Embedded broker"), -1);
    const auto &connections = manager_.connections();
    for (int i = 0; i < static_cast<int>(connections.size()); ++i) {
        combo_->addItem(tr("%1 (%2)").arg(connections[i].name, connections[i].namesrvAddress), i);
        combo_->setItemData(combo_->count() - 1, connections[i].namesrvAddress, Qt::ToolTipRole);
    }
    combo_->setCurrentIndex(manager_.selectedIndex() + 1);
    reloading_ = false;
}

void ConnectionBar::checkReachable()
{
    const uint64_t generation = ++checkGeneration_;
    const SavedConnection *selected = manager_.selectedConnection();
    const QString address = connection_.namesrvAddress();
    if (!selected || address.isEmpty() || address != selected->namesrvAddress) {
        showBanner({}, false);
        return;
    }
    const QString name = selected->name;
    showBanner(tr("Connecting to %1 (%2)…").arg(name, address), false);
    connection_.run(
        this, [](client::AdminClient &admin) { return admin.clusterInfo(); },
        [this, generation, name, address](client::Result<remoting::ClusterInfo> result) {
            if (generation != checkGeneration_)
                return;
            if (result.ok)
                showBanner({}, false);
            else
                showBanner(tr("Cannot reach %1 at %2: %3. Check the address and that the NameServer is "
                              "running, or pick another cluster (Ctrl+K).")
                               .arg(name, address, QString::fromStdString(result.error)),
                           true);
        });
}

void ConnectionBar::showBanner(const QString &text, bool error)
{
    banner_->setText(text);
    banner_->setStyleSheet(error ? QStringLiteral("background: #fde2e1; color: #8a1f11; border-radius: 4px;")
                                 : QStringLiteral("background: palette(alternate-base); border-radius: 4px;"));
    banner_->setVisible(!text.isEmpty());
}

} // namespace mqdesk::ui
