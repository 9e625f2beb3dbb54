#pragma once

// The Connections toolbar: which cluster the views show ("Embedded broker" or a saved
// connection) and the way to the Connections dialog, plus the inline banner that says when the
// selected cluster cannot be reached (one GET_BROKER_CLUSTER_INFO through the ClusterConnection,
// 3 s client timeout, off the GUI thread) or when saved connections were skipped on load.
// Picking an entry only changes the ConnectionManager's selection; the main window points the
// ClusterConnection at it.

#include <QToolBar>

#include <cstdint>

class QComboBox;
class QLabel;
class QMenu;

namespace mqdesk::ui {

class ClusterConnection;
class ConnectionManager;
class ConnectionsDialog;

class ConnectionBar : public QToolBar
{
    Q_OBJECT

public:
    ConnectionBar(ConnectionManager &manager, ClusterConnection &connection, QWidget *parent = nullptr);

    // The banner, for the window to place above its views (hidden when there is nothing to say).
    QLabel *banner() const { return banner_; }
    QComboBox *combo() const { return combo_; }
    QString bannerText() const;
    // Adds Switch cluster (Ctrl+K) and Manage connections… to `menu`.
    void addActionsTo(QMenu *menu);
    // Opens the Connections dialog (window-modal, not blocking); returns it.
    ConnectionsDialog *openDialog();

private:
    void reloadCombo();
    void checkReachable();
    void showBanner(const QString &text, bool error);

    ConnectionManager &manager_;
    ClusterConnection &connection_;
    QComboBox *combo_ = nullptr;
    QLabel *banner_ = nullptr;
    uint64_t checkGeneration_ = 0;
    bool reloading_ = false;
};

} // namespace mqdesk::ui
